import { expect } from 'chai';
import type { Browser } from 'puppeteer-core';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { launchBrowser, step, textOf, watch } from './helpers.ts';

/** `GET /docs` in Chromium: the interactive reference renders from this server alone, with no console error. */
describe('browser: the API reference at /docs', function () {
  this.timeout(120_000);
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders the contract\'s operations, with no console error and no request leaving the server', async () => {
    const page = await browser.newPage();
    const seen = watch(page);
    const requests: string[] = [];
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      requests.push(request.url());
      const url = new URL(request.url());
      // Anything but this server is refused (and reported below): no CDN, no fonts, no telemetry.
      if (url.origin !== server.baseUrl && url.protocol !== 'data:' && url.protocol !== 'blob:') return void request.abort();
      void request.continue();
    });
    await step(page, 'docs', async () => {
      await page.goto(`${server.baseUrl}/docs`, { waitUntil: 'networkidle0' });
      // Scalar renders the contract read from /openapi.yaml: its title, and each tag's operations by path.
      await textOf(page, 'body', /Venue backend API/, 30_000);
      const body = await page.$eval('body', (b) => (b as HTMLElement).innerText);
      for (const path of ['/api/public/show-events', '/api/public/reservations/{reference}/checkout', '/api/payments/vnpay/return', '/api/check-ins', '/llm/chat']) {
        expect(body, path).to.include(path);
      }
    });
    const elsewhere = requests.filter((url) => {
      const parsed = new URL(url);
      return parsed.origin !== server.baseUrl && parsed.protocol !== 'data:' && parsed.protocol !== 'blob:';
    });
    expect(elsewhere, 'requests to other hosts').to.deep.equal([]);
    expect(requests.some((url) => url.endsWith('/openapi.yaml')), 'the contract was fetched').to.equal(true);
    expect(seen.consoleErrors, 'console errors').to.deep.equal([]);
    expect(seen.pageErrors, 'page errors').to.deep.equal([]);
    expect(seen.failed, 'failed requests').to.deep.equal([]);
    await page.close();
  });
});
