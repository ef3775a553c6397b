import fs from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { SCALAR_CONFIGURATION } from '../../../server/modules/system/docs.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/**
 * The API reference (GET /docs): Scalar from node_modules, over /openapi.yaml, with no outside host anywhere
 * in the page, a Content-Security-Policy limited to this origin, and the script served by us with caching.
 */

/** Every http(s) URL host in a text, except loopback ones. */
const outsideHosts = (text: string) =>
  [...text.matchAll(/https?:\/\/([^/\s"'<>)]+)/g)].map((m) => m[1]).filter((host) => !/^(localhost|127\.0\.0\.1)(:\d+)?$/.test(host));

describe('system: API reference (/docs)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('serves an HTML page that loads our script and our contract, with no outside host and a self-only CSP', async () => {
    const res = await server.request('GET', '/docs');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    expect(res.text).to.contain('<script src="/docs/scalar.js"></script>');
    expect(res.text).to.contain('data-url="/openapi.yaml"');
    expect(outsideHosts(res.text)).to.deep.equal([]);
    expect(res.text).to.not.match(/\/\/(cdn|fonts)\./);
    // No inline script runs: the configuration is data on a JSON script element.
    expect(res.text).to.match(/<script id="api-reference" type="application\/json"/);
    const configuration = JSON.parse(/data-configuration="([^"]*)"/.exec(res.text)![1].replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
    expect(configuration).to.include({ withDefaultFonts: false, telemetry: false });
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).to.contain("default-src 'self'").and.contain("script-src 'self'").and.contain("connect-src 'self'").and.contain("font-src 'self'");
    expect(csp).to.not.match(/https?:|\*/);
    expect(csp).to.not.match(/script-src[^;]*unsafe/);
  });

  it('answers HEAD for the page', async () => {
    const res = await server.request('HEAD', '/docs');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    expect(res.text).to.equal('');
  });

  it('serves the Scalar bundle from node_modules as JavaScript, cached, with an ETag and 304', async () => {
    const file = createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');
    const res = await server.request('GET', '/docs/scalar.js');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/javascript/);
    expect(res.headers.get('cache-control')).to.equal('public, max-age=86400');
    expect(res.bytes.equals(fs.readFileSync(file))).to.equal(true);
    const etag = res.headers.get('etag')!;
    expect(etag).to.match(/^"[0-9a-f]{64}"$/);
    const cached = await server.request('GET', '/docs/scalar.js', { headers: { 'if-none-match': etag } });
    expect(cached.status).to.equal(304);
    const head = await server.request('HEAD', '/docs/scalar.js');
    expect(head.status).to.equal(200);
    expect(head.headers.get('content-length')).to.equal(String(res.bytes.length));
  });

  it('is public by exact paths only: nothing else under /docs/', async () => {
    expect((await server.request('GET', '/docs/other.js', { unchecked: true })).status).to.equal(404);
  });

  it('turns off what the bundle would otherwise fetch from elsewhere (fonts, telemetry)', () => {
    // What was found in @scalar/api-reference 1.40: default fonts from fonts.scalar.com unless withDefaultFonts
    // is false; usage events to api.scalar.com/analytics/send unless telemetry is false.
    const bundle = fs.readFileSync(createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'), 'utf8');
    expect(bundle).to.contain('withDefaultFonts');
    expect(bundle).to.contain('https://fonts.scalar.com/');
    expect(bundle).to.match(/telemetry:\w+\.boolean\(\)\.optional\(\)\.default\(!0\)/);
    expect(SCALAR_CONFIGURATION).to.include({ withDefaultFonts: false, telemetry: false, hideClientButton: true });
    expect(SCALAR_CONFIGURATION).to.not.have.property('proxyUrl');
  });
});
