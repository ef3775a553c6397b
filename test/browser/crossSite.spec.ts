import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser } from 'puppeteer-core';
import { buildMemberSession } from '../helpers/factories.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { bookableEvent, contact } from '../modules/booking/factories.ts';
import { guestHold } from '../modules/reservations/helpers.ts';
import { CHROMIUM, launchBrowser } from './helpers.ts';

/**
 * Issue 32 §1 in a real browser: a staff member is signed in to the API (the session cookie, SameSite=Lax) and opens a
 * page on another origin of the same site (another port of the same host: a sibling subdomain behaves alike). That page
 * submits a real `<form>` at the API and fires a no-cors fetch with credentials. Chromium sends the cookie with both
 * (same site); the API refuses both, and the booking does not change.
 */
function hostilePage(html: () => string) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html());
  });
  return new Promise<{ origin: string; requests: string[]; close(): Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

describe('browser: a hostile page cannot drive a signed-in staff browser (CSRF)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let browser: Browser;
  let page: Awaited<ReturnType<typeof hostilePage>>;
  let target = '';
  let html = () => '';

  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install the OS package (apt-get install -y chromium) or set CHROMIUM_PATH.`);
    page = await hostilePage(() => html());
    server = await startTestServer({ config: { dashboardOrigins: ['https://dashboard.venue.test'] } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await page?.close();
  });

  const status = async (id: string) => (await server.db.knex('reservations').where({ id }).first('status')).status;
  /** The API's log line of the request to `path`: what the server saw (its role proves the cookie travelled). */
  const logged = (path: string) => server.logs.filter((line) => line.msg === 'request' && line.path === path);

  it('a <form> POST and a no-cors fetch at confirm/cancel carry the cookie, are refused, and the booking stays held', async () => {
    const { event, offer } = await bookableEvent();
    const held = await guestHold(server, event, offer, 2, contact(1));
    const { token } = await buildMemberSession('member');
    target = server.baseUrl;
    const cancel = `/api/reservations/${held}/cancel`;
    const confirm = `/api/reservations/${held}/confirm`;
    html = () => `<!doctype html><html><body>
      <form id="f" method="POST" action="${target}${cancel}" enctype="application/x-www-form-urlencoded"><input name="reason" value="csrf"></form>
      <form id="g" method="POST" action="${target}${confirm}" enctype="text/plain"><input name='{"x":"' value='"}'></form>
      <script>
        fetch(${JSON.stringify(target + confirm)}, { method: 'POST', mode: 'no-cors', credentials: 'include' })
          .finally(() => { document.title = 'fetched'; document.getElementById(location.hash === '#g' ? 'g' : 'f').submit(); });
      </script></body></html>`;

    const tab = await browser.newPage();
    // The staff member's session, as the dashboard's sign-in left it on the API's host.
    await tab.setCookie({ name: 'venue_session', value: token, url: target, httpOnly: true, sameSite: 'Lax' });
    for (const hash of ['#f', '#g']) {
      const submitted = tab.waitForResponse((response) => response.request().isNavigationRequest() && response.url().startsWith(`${target}/api/reservations/`));
      await tab.goto(`${page.origin}/${hash}`);
      const answer = await submitted;
      expect(answer.status()).to.equal(403);
      // The form's answer is the API's refusal, shown in the tab.
      let shown = '';
      for (let i = 0; i < 50 && !shown.includes('cross_site_request'); i++) {
        shown = await tab.evaluate(() => document.body?.innerText ?? '').catch(() => '');
        if (!shown.includes('cross_site_request')) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(shown).to.contain('cross_site_request');
    }
    await tab.close();

    expect(await status(held)).to.equal('HELD');
    // Chromium did send the cookie (the server resolved the staff role) and the Origin of the page.
    const attempts = [...logged(cancel), ...logged(confirm)];
    expect(attempts.length).to.be.at.least(3);
    for (const line of attempts) expect(line, JSON.stringify(line)).to.deep.include({ status: 403, role: 'staff' });
    const refusals = server.logs.filter((line) => line.msg === 'cross-site write refused');
    expect(refusals.map((line) => line.origin)).to.include(page.origin);
  });
});
