import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import puppeteer, { type Browser, type CDPSession, type Page } from 'puppeteer-core';
import { buildAccount, buildMembership, DEFAULT_PASSWORD } from '../helpers/factories.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Passkeys in a real browser (issue 23 §5): the OS's Chromium (never a downloaded one) driven by puppeteer-core,
 * with Chromium's virtual authenticator (the DevTools WebAuthn domain) standing in for a platform authenticator.
 * A tiny dashboard page, on its own origin (http://localhost:<port>, listed in the test server's DASHBOARD_ORIGINS
 * and WebAuthn origins), uses @simplewebauthn/browser (its ESM build, served from node_modules) against the API on
 * http://localhost:<api port>: it signs in with a password, registers a passkey, signs out, and signs in again with
 * the passkey alone. A screenshot is saved when a step fails.
 */

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const BROWSER_PACKAGE = fileURLToPath(new URL('../../node_modules/@simplewebauthn/browser/esm/', import.meta.url));

const PAGE = (apiUrl: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Dashboard passkeys</title></head>
<body>
<h1>Dashboard</h1>
<p id="who">signed out</p>
<ul id="passkeys"></ul>
<script type="module">
import { startAuthentication, startRegistration, browserSupportsWebAuthn } from '/simplewebauthn/index.js';
const api = ${JSON.stringify(apiUrl)};
async function call(method, path, body) {
  const res = await fetch(api + path, {
    method,
    credentials: 'include',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
async function show() {
  const me = await call('GET', '/api/auth/me');
  document.getElementById('who').textContent = me.status === 200 ? 'signed in as ' + me.body.account.email : 'signed out';
  const list = me.status === 200 ? (await call('GET', '/api/auth/passkeys')).body.items : [];
  document.getElementById('passkeys').innerHTML = list.map((p) => '<li>' + p.label + '</li>').join('');
  return me;
}
window.dashboard = {
  supported: () => browserSupportsWebAuthn(),
  signIn: async (identifier, password) => { const r = await call('POST', '/api/auth/sign-in', { identifier, password }); await show(); return r; },
  signOut: async () => { const r = await call('POST', '/api/auth/sign-out'); await show(); return r; },
  me: () => call('GET', '/api/auth/me'),
  registerPasskey: async (label) => {
    const options = await call('POST', '/api/auth/passkeys/registration-options');
    if (options.status !== 200) return options;
    const credential = await startRegistration({ optionsJSON: options.body });
    const r = await call('POST', '/api/auth/passkeys', { credential, label });
    await show();
    return r;
  },
  signInWithPasskey: async () => {
    const options = await call('POST', '/api/auth/passkey-sign-in/options');
    if (options.status !== 200) return options;
    const credential = await startAuthentication({ optionsJSON: options.body });
    const r = await call('POST', '/api/auth/passkey-sign-in', { credential });
    await show();
    return r;
  },
};
document.body.dataset.ready = 'yes';
</script>
</body>
</html>`;

/** The page's origin: index.html, and /simplewebauthn/* from the package's ESM build. */
async function servePage(): Promise<{ origin: string; setApi(url: string): void; close(): Promise<void> }> {
  let apiUrl = '';
  const server = http.createServer(async (req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (pathname === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE(apiUrl));
    if (pathname.startsWith('/simplewebauthn/')) {
      const file = path.join(BROWSER_PACKAGE, path.normalize(pathname.slice('/simplewebauthn/'.length)));
      if (file.startsWith(BROWSER_PACKAGE) && file.endsWith('.js') && existsSync(file)) {
        return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(await fs.readFile(file));
      }
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    setApi: (url) => {
      apiUrl = url;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('browser: passkeys with Chromium’s virtual authenticator', function () {
  this.timeout(120_000);
  let server: TestServer;
  let site: Awaited<ReturnType<typeof servePage>>;
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId: string;
  let apiUrl: string;

  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install the OS package (apt-get install -y chromium) or set CHROMIUM_PATH.`);
    site = await servePage();
    server = await startTestServer({
      config: {
        dashboardOrigins: [site.origin],
        webauthn: { rpId: 'localhost', rpName: 'Browser test venue', origins: [site.origin], challengeTtlSeconds: 120 },
      },
    });
    // The API on localhost too: the page and the API are then the same site, so the SameSite=Lax session cookie
    // travels with the page's credentialed calls (CORS gives this dashboard origin credentials).
    apiUrl = server.baseUrl.replace('127.0.0.1', 'localhost');
    site.setApi(apiUrl);
    browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
    page = await browser.newPage();
    cdp = await page.createCDPSession();
    await cdp.send('WebAuthn.enable');
    ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    }));
    await page.goto(site.origin + '/');
    await page.waitForSelector('body[data-ready="yes"]');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await site?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !page) return;
    const file = path.join(os.tmpdir(), `venue-browser-passkeys-${Date.now()}.png`) as `${string}.png`;
    await page.screenshot({ path: file, fullPage: true }).then(
      () => console.error(`    [browser] failed at ${page.url()}; screenshot: ${file}`),
      (error) => console.error(`    [browser] no screenshot: ${String(error)}`),
    );
  });

  it('registers a passkey while signed in, then signs in with it alone', async () => {
    const account = await buildAccount({ email: 'door.manager@example.test' });
    await buildMembership(account, 'admin');
    expect(await page.evaluate(() => (window as any).dashboard.supported())).to.equal(true);

    const signedIn = await page.evaluate((email, password) => (window as any).dashboard.signIn(email, password), account.email, DEFAULT_PASSWORD);
    expect(signedIn.status).to.equal(200);
    expect(await page.$eval('#who', (el) => el.textContent)).to.equal(`signed in as ${account.email}`);

    const registered = await page.evaluate(() => (window as any).dashboard.registerPasskey('Chromium virtual key'));
    expect(registered.status, JSON.stringify(registered.body)).to.equal(201);
    expect(registered.body).to.include({ label: 'Chromium virtual key', lastUsedAt: null });
    expect(await page.$$eval('#passkeys li', (items) => items.map((li) => li.textContent))).to.deep.equal(['Chromium virtual key']);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).to.have.length(1);
    expect(credentials[0].isResidentCredential, 'a discoverable credential').to.equal(true);
    expect(credentials[0].rpId).to.equal('localhost');
    const row = await server.db.knex('passkeys').where({ account_id: account.id }).first();
    expect(row.credential_id).to.equal(Buffer.from(credentials[0].credentialId, 'base64').toString('base64url'));

    expect((await page.evaluate(() => (window as any).dashboard.signOut())).status).to.equal(204);
    expect((await page.evaluate(() => (window as any).dashboard.me())).status).to.equal(401);

    const passkeySignIn = await page.evaluate(() => (window as any).dashboard.signInWithPasskey());
    expect(passkeySignIn.status, JSON.stringify(passkeySignIn.body)).to.equal(200);
    expect(passkeySignIn.body).to.include({ authSource: 'session', role: 'admin' });
    expect(passkeySignIn.body.account.email).to.equal(account.email);
    const me = await page.evaluate(() => (window as any).dashboard.me());
    expect(me.status).to.equal(200);
    expect(me.body.account.id).to.equal(account.id);
    expect(await page.$eval('#who', (el) => el.textContent)).to.equal(`signed in as ${account.email}`);

    // The server stored the authenticator's counter as it reported it.
    const [credential] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    const used = await server.db.knex('passkeys').where({ account_id: account.id }).first();
    expect(Number(used.counter)).to.equal(credential.signCount);
    expect(used.last_used_at).to.not.equal(null);
  });

  it('refuses the passkey once the account is banned, and once it is removed', async () => {
    const account = await buildAccount();
    await buildMembership(account, 'member');
    // The authenticator forgets the first test's passkey, so that it offers only the one registered here.
    await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
    await page.evaluate(() => (window as any).dashboard.signOut());
    expect((await page.evaluate((email, password) => (window as any).dashboard.signIn(email, password), account.email, DEFAULT_PASSWORD)).status).to.equal(200);
    const registered = await page.evaluate(() => (window as any).dashboard.registerPasskey('Second'));
    expect(registered.status).to.equal(201);
    await page.evaluate(() => (window as any).dashboard.signOut());

    await server.db.knex('accounts').where({ id: account.id }).update({ banned: true });
    const banned = await page.evaluate(() => (window as any).dashboard.signInWithPasskey());
    expect(banned.status).to.equal(403);
    expect(banned.body.code).to.equal('account_banned');

    await server.db.knex('accounts').where({ id: account.id }).update({ banned: false });
    await server.db.knex('passkeys').where({ id: registered.body.id }).delete();
    const removed = await page.evaluate(() => (window as any).dashboard.signInWithPasskey());
    expect(removed.status).to.equal(401);
    expect(removed.body.code).to.equal('passkey_not_recognized');
    expect((await page.evaluate(() => (window as any).dashboard.me())).status).to.equal(401);
  });
});
