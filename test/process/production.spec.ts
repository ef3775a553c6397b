import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../server/platform/config.ts';
import { assertProductionReady, productionRefusals } from '../../server/platform/guardRails.ts';

// Production refuses weak secrets (issue 32 §2), so the fixtures' secrets look like `openssl rand -hex 20`.
const TOKEN = '9c1f4e7a2b8d6035e1f7a4c9b2d8e6f13a5c7e9b';
const RECORDED = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4';
const DEV_TOKEN = 'dev_5f2a8c1e9b7d3046a2c4e6f8b1d3e5a7c9';

/** What production needs at least: a superuser token and a data directory of its own (no development secrets). */
function production(env: Record<string, string>, dataDir: string) {
  return loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, SUPERUSER_API_TOKENS: TOKEN, ...env });
}

/**
 * Issue 25 §10: NODE_ENV=production refuses to start with the payment sandbox, credentialed wildcard CORS,
 * generated development secrets, or no superuser token; each refusal names the setting to change.
 */
describe('production guard rails', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-prod-'))));
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('starts with a production configuration, and nothing is refused outside production', () => {
    expect(productionRefusals(production({}, dataDir))).to.deep.equal([]);
    expect(() => assertProductionReady(production({}, dataDir))).not.to.throw();
    // Development: the sandbox, no token, a dev_ token are all fine.
    expect(productionRefusals(loadConfig({ DATA_DIR: dataDir, SUPERUSER_API_TOKENS: 'dev_x', VNPAY_SANDBOX: 'true' }))).to.deep.equal([]);
  });

  it('refuses the payment sandbox: the simulated pay page, and VNPay pointed at its own sandbox', () => {
    expect(() => production({ VNPAY_SANDBOX: 'true' }, dataDir)).to.throw(ConfigError, /VNPAY_SANDBOX/);
    const vnpay = { VNPAY_TMN_CODE: 'TMN1', VNPAY_HASH_SECRET: 'secret' };
    const refusals = productionRefusals(production(vnpay, dataDir));
    expect(refusals).to.have.length(2);
    expect(refusals[0]).to.match(/^VNPAY_PAYMENT_URL: https:\/\/sandbox\.vnpayment\.vn\/.* is VNPay's sandbox/);
    expect(refusals[1]).to.match(/^VNPAY_API_URL: https:\/\/sandbox\.vnpayment\.vn\/.* is VNPay's sandbox/);
    const live = { ...vnpay, VNPAY_PAYMENT_URL: 'https://pay.vnpay.vn/vpcpay.html', VNPAY_API_URL: 'https://pay.vnpay.vn/merchant_webapi/api/transaction' };
    expect(productionRefusals(production(live, dataDir))).to.deep.equal([]);
    // The sandbox passed in by hand (a config built in code) is refused too.
    expect(productionRefusals({ ...production({}, dataDir), vnpaySandbox: true })[0]).to.match(/^VNPAY_SANDBOX:/);
  });

  it('refuses credentialed wildcard CORS (DASHBOARD_ORIGINS)', () => {
    expect(() => production({ DASHBOARD_ORIGINS: '*' }, dataDir)).to.throw(ConfigError, /DASHBOARD_ORIGINS/);
    // A wildcard host parses as an origin; production refuses it.
    const wildcardHost = production({ DASHBOARD_ORIGINS: 'https://*.example.com', WEBAUTHN_ORIGINS: 'https://example.com' }, dataDir);
    expect(() => assertProductionReady(wildcardHost)).to.throw(ConfigError, /DASHBOARD_ORIGINS: https:\/\/\*\.example\.com would be answered with credentials from any site/);
    expect(productionRefusals({ ...production({}, dataDir), dashboardOrigins: ['*'] })[0]).to.match(/^DASHBOARD_ORIGINS: \* would be answered with credentials/);
    expect(productionRefusals(production({ DASHBOARD_ORIGINS: 'https://dashboard.example.com' }, dataDir))).to.deep.equal([]);
  });

  it('refuses a waiting-list offer page on the API’s own origin (WAITLIST_OFFER_URL), unless the site shares it (issue 34 §3)', () => {
    const api = { PUBLIC_API_URL: 'https://api.venue.example', PUBLIC_SITE_URL: 'https://venue.example' };
    // Unset: derived from the site, never refused.
    expect(production(api, dataDir).waitlistOfferUrl).to.equal('https://venue.example/{locale}/waitlist-offer');
    expect(productionRefusals(production(api, dataDir))).to.deep.equal([]);
    const onApi = productionRefusals(production({ ...api, WAITLIST_OFFER_URL: 'https://api.venue.example/waitlist-offer' }, dataDir));
    expect(onApi).to.have.length(1);
    expect(onApi[0]).to.match(/^WAITLIST_OFFER_URL: https:\/\/api\.venue\.example\/waitlist-offer is on the API's own origin \(PUBLIC_API_URL\)/);
    // One origin for the site and the API (a reverse proxy serving both): the site's page is there.
    const shared = { PUBLIC_API_URL: 'https://venue.example', PUBLIC_SITE_URL: 'https://venue.example', WAITLIST_OFFER_URL: 'https://venue.example/{locale}/waitlist-offer' };
    expect(productionRefusals(production(shared, dataDir))).to.deep.equal([]);
    // Outside production nothing is refused.
    expect(productionRefusals(loadConfig({ DATA_DIR: dataDir, ...api, WAITLIST_OFFER_URL: 'https://api.venue.example/waitlist-offer' }))).to.deep.equal([]);
  });

  it('refuses a missing superuser token store (SUPERUSER_API_TOKENS)', () => {
    const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir });
    expect(() => assertProductionReady(config)).to.throw(ConfigError, /SUPERUSER_API_TOKENS: no superuser token is set/);
    // SUPERUSER_API_TOKEN (the single form) is a store too.
    expect(productionRefusals(loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, SUPERUSER_API_TOKEN: TOKEN }))).to.deep.equal([]);
  });

  it('refuses generated development secrets: a dev_ token, the recorded token, the development credentials file', () => {
    expect(productionRefusals(production({ SUPERUSER_API_TOKENS: `${TOKEN},${DEV_TOKEN}` }, dataDir))).to.deep.equal([
      'SUPERUSER_API_TOKENS: a token starting with "dev_" is a generated development token; set tokens of your own',
    ]);
    const file = path.join(dataDir, 'dev-credentials.json');
    fs.writeFileSync(file, JSON.stringify({ superuserToken: RECORDED, passwords: { admin: 'generated' } }));
    const refusals = productionRefusals(production({ SUPERUSER_API_TOKENS: RECORDED }, dataDir));
    expect(refusals).to.have.length(2);
    expect(refusals[0]).to.equal(`SUPERUSER_API_TOKENS: a token is the development token recorded in ${file}; set tokens of your own`);
    expect(refusals[1]).to.match(/^DATA_DIR: .*dev-credentials\.json holds development secrets generated for this data directory/);
    // On PostgreSQL the file belongs to another (embedded) database: only a token taken from it is refused.
    expect(productionRefusals(production({ DATABASE_URL: 'postgres://x@127.0.0.1/db' }, dataDir))).to.deep.equal([]);
  });

  it('refuses weak shared secrets, every one at once, naming the variable and the reason but never the value', () => {
    const weak = {
      SUPERUSER_API_TOKENS: `${TOKEN},admin`,
      SVC_LLM_SERVICE_TOKEN: 'a'.repeat(40),
      CHAT_WEBHOOK_TOKEN: 'passwordpasswordpasswordpassword',
      METRICS_TOKEN: 'change-me-to-a-long-random-secret-string',
      MESSAGING_VERIFY_TOKEN: 'abcdefghijklmnopqrstuvwxyz0123456789',
      MESSAGING_APP_SECRET: 'test-superuser-token-0123456789',
    };
    const refusals = productionRefusals(production(weak, dataDir));
    expect(refusals.map((refusal) => refusal.split(':')[0])).to.deep.equal([
      'SUPERUSER_API_TOKENS (token 2 of 2)',
      'SVC_LLM_SERVICE_TOKEN',
      'CHAT_WEBHOOK_TOKEN',
      'MESSAGING_VERIFY_TOKEN',
      'METRICS_TOKEN',
      'MESSAGING_APP_SECRET',
    ]);
    expect(refusals[0]).to.match(/is 5 characters long; use at least 32/);
    expect(refusals[1]).to.match(/uses only 1 different character/);
    expect(refusals[2]).to.match(/repeats "password"/);
    expect(refusals[3]).to.match(/consecutive characters/);
    expect(refusals[4]).to.match(/common words/);
    expect(refusals[5]).to.match(/example value/);
    for (const value of Object.values(weak)) for (const refusal of refusals) expect(refusal).not.to.contain(value.split(',').pop());
    // `admin` over the network: the server does not start with it.
    expect(() => assertProductionReady(production({ SUPERUSER_API_TOKEN: 'admin', SUPERUSER_API_TOKENS: '' }, dataDir))).to.throw(ConfigError, /SUPERUSER_API_TOKENS: the secret is 5 characters long/);
    // Random values of 32 characters and more pass, whatever their alphabet.
    const strong = { SVC_LLM_SERVICE_TOKEN: 'Qm9c-Xr2_Lp8vTz4Ka7sWd1eNf6gHj3y', CHAT_WEBHOOK_TOKEN: '7934443010801986884669297640497378', METRICS_TOKEN: TOKEN };
    expect(productionRefusals(production(strong, dataDir))).to.deep.equal([]);
    // Outside production nothing is refused: the suite and `npm start` use short tokens.
    expect(productionRefusals(loadConfig({ DATA_DIR: dataDir, ...weak }))).to.deep.equal([]);
  });

  it('the server refuses to start, naming every setting to change, and exits 1', async function () {
    this.timeout(60_000);
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DASHBOARD_ORIGINS: 'https://dash.example.com' };
    for (const name of ['DATABASE_URL', 'SUPERUSER_API_TOKENS', 'SUPERUSER_API_TOKEN', 'VNPAY_SANDBOX']) delete env[name];
    fs.writeFileSync(path.join(dataDir, 'dev-credentials.json'), JSON.stringify({ superuserToken: 'dev_generated' }));
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, output).to.equal(1);
    expect(output).to.contain('Cannot start: NODE_ENV=production refuses to start:');
    expect(output).to.contain('- SUPERUSER_API_TOKENS: no superuser token is set');
    expect(output).to.match(/- DATA_DIR: .*dev-credentials\.json holds development secrets/);
    // Nothing was opened: no database under the data directory.
    expect(fs.existsSync(path.join(dataDir, 'pgdata'))).to.equal(false);
  });
});
