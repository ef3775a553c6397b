import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../server/platform/config.ts';
import { SANDBOX_TMN_CODE, sandboxSecret } from '../../../server/modules/payments/sandbox.ts';
import { vnpaySignData } from '../../helpers/fakeVnpay.ts';
import { asSuperuser, startTestServer, type TestServer } from '../../helpers/server.ts';
import { checkout, hold, urlParams } from './helpers.ts';

/**
 * The development payment sandbox (issue 21 §5): with VNPAY_* unset outside production, checkout offers VNPay
 * through this server's simulator of VNPay's pay page, which signs VNPay's callbacks with the development secret,
 * delivers the IPN first and then sends the browser to the signed return URL. Signatures are checked here with the
 * fake's own implementation of VNPay's rules (test/helpers/fakeVnpay.ts), not with the server's.
 */

/** The path and query of an absolute URL (the test server is reached on 127.0.0.1, the URLs name localhost). */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

const form = (outcome: string) => ({ rawBody: `outcome=${outcome}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

/** VNPay's signature of callback parameters, computed independently of server/platform/integrations/vnpay.ts. */
const vnpayHash = (secret: string, params: Record<string, string>) => createHmac('sha512', secret).update(Buffer.from(vnpaySignData(params), 'utf-8')).digest('hex');

describe('payments: the development VNPay sandbox', () => {
  let server: TestServer;
  let port: string;

  before(async () => {
    server = await startTestServer({ config: { vnpaySandbox: true, publicApiUrlExplicit: false } });
    port = new URL(server.baseUrl).port;
  });
  beforeEach(async () => {
    await server.db.knex('commercial_setup').update({ payment_gateways: JSON.stringify(['VNPAY']) });
  });
  after(() => server.close());

  async function startVnpay(who: number) {
    const held = await hold(server, { who });
    const started = await checkout(server, held, { method: 'VNPAY', locale: 'en' });
    expect(started.status, JSON.stringify(started.body)).to.equal(201);
    return { held, started: started.body, paymentUrl: started.body.vnpay.paymentUrl as string };
  }

  const reservation = (id: string) => server.db.knex('reservations').where({ id }).first('status');
  const payment = (id: string) => server.db.knex('payments').where({ id }).first('status', 'gateway_response_code', 'gateway_transaction_id');

  it('offers VNPay without a VNPay account: the payment URL is the sandbox on this server, signed as for VNPay, returning to the listening port', async () => {
    const { held, paymentUrl } = await startVnpay(1);
    const options = await server.request<any>('GET', `/api/public/reservations/${held.reference}/checkout`, { headers: { 'x-reservation-token': held.token } });
    expect(options.body.methods).to.deep.equal(['VNPAY']);
    expect(paymentUrl.startsWith(`http://localhost:${port}/api/payments/vnpay/sandbox?`), paymentUrl).to.equal(true);
    const params = urlParams(paymentUrl);
    expect(params).to.include({ vnp_Version: '2.1.0', vnp_Command: 'pay', vnp_TmnCode: SANDBOX_TMN_CODE, vnp_CurrCode: 'VND', vnp_Amount: String(held.totalVnd * 100) });
    // Never a fixed localhost:3000: the port this server listens on.
    expect(params.vnp_ReturnUrl).to.equal(`http://localhost:${port}/api/payments/vnpay/return`);
    expect(params.vnp_SecureHash).to.equal(vnpayHash(sandboxSecret(server.config), params));
  });

  it('shows the pay page (amount, order, Pay / Cancel / Fail) as plain HTML with no outside asset', async () => {
    const { held, paymentUrl } = await startVnpay(2);
    const page = await server.request<string>('GET', pathOf(paymentUrl));
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    expect(page.headers.get('content-security-policy')).to.contain("default-src 'none'");
    expect(page.headers.get('cache-control')).to.equal('no-store');
    expect(page.body).to.contain(`${held.totalVnd.toLocaleString('vi-VN')} ₫`);
    expect(page.body).to.contain(`Thanh toan dat cho ${held.reference}`);
    for (const outcome of ['pay', 'cancel', 'fail']) expect(page.body).to.contain(`name="outcome" value="${outcome}"`);
    expect(page.body).to.not.match(/<script|<link|src=|https?:\/\//i);
  });

  it('Pay: the IPN confirms the reservation before the browser is sent to the signed return URL', async () => {
    const { held, started, paymentUrl } = await startVnpay(3);
    const res = await server.request('POST', pathOf(paymentUrl), form('pay'));
    expect(res.status).to.equal(303);
    const location = res.headers.get('location')!;
    expect(location.startsWith(`http://localhost:${port}/api/payments/vnpay/return?`), location).to.equal(true);
    // Processed server to server before the browser comes back.
    expect(await reservation(held.id)).to.deep.equal({ status: 'CONFIRMED' });
    expect(await payment(started.paymentId)).to.include({ status: 'SUCCEEDED', gateway_response_code: '00' });
    const ipns = await server.db.knex('payment_callbacks').where({ kind: 'IPN', txn_ref: started.vnpay.txnRef });
    expect(ipns.map((row) => [row.signature_valid, row.outcome])).to.deep.equal([[true, '00']]);
    // The return carries VNPay 2.1's callback fields, signed with the development secret.
    const back = urlParams(location);
    expect(back).to.include({ vnp_ResponseCode: '00', vnp_TransactionStatus: '00', vnp_TxnRef: started.vnpay.txnRef, vnp_Amount: String(held.totalVnd * 100), vnp_TmnCode: SANDBOX_TMN_CODE });
    expect(back).to.have.keys('vnp_Amount', 'vnp_BankCode', 'vnp_BankTranNo', 'vnp_CardType', 'vnp_OrderInfo', 'vnp_PayDate', 'vnp_ResponseCode', 'vnp_TmnCode', 'vnp_TransactionNo', 'vnp_TransactionStatus', 'vnp_TxnRef', 'vnp_SecureHash');
    expect(back.vnp_SecureHash).to.equal(vnpayHash(sandboxSecret(server.config), back));
    const landed = await server.request<any>('GET', pathOf(location));
    expect(landed.body).to.deep.equal({ valid: true, gatewaySuccess: true, responseCode: '00', paymentStatus: 'SUCCEEDED', reservationReference: held.reference, reservationStatus: 'CONFIRMED' });
    // Pressing Pay again (a double click, the back button): VNPay's replay answer, nothing changes.
    const again = await server.request('POST', pathOf(paymentUrl), form('pay'));
    expect(again.status).to.equal(303);
    expect((await server.db.knex('payment_callbacks').where({ kind: 'IPN', txn_ref: started.vnpay.txnRef }).orderBy('id')).map((row) => row.outcome)).to.deep.equal(['00', '02']);
  });

  it('Cancel: code 24 through the same IPN and return; the payment FAILED, the reservation still HELD', async () => {
    const { held, started, paymentUrl } = await startVnpay(4);
    const res = await server.request('POST', pathOf(paymentUrl), form('cancel'));
    expect(res.status).to.equal(303);
    expect(await reservation(held.id)).to.deep.equal({ status: 'HELD' });
    expect(await payment(started.paymentId)).to.include({ status: 'FAILED', gateway_response_code: '24' });
    const back = urlParams(res.headers.get('location')!);
    expect(back).to.include({ vnp_ResponseCode: '24', vnp_TransactionStatus: '02', vnp_TransactionNo: '0' });
    expect(back.vnp_SecureHash).to.equal(vnpayHash(sandboxSecret(server.config), back));
    const landed = await server.request<any>('GET', pathOf(res.headers.get('location')!));
    expect(landed.body).to.include({ valid: true, gatewaySuccess: false, responseCode: '24', paymentStatus: 'FAILED', reservationStatus: 'HELD' });
    // The guest may try again: a new attempt, paid this time.
    const retry = await checkout(server, held, { method: 'VNPAY' });
    expect((await server.request('POST', pathOf(retry.body.vnpay.paymentUrl), form('pay'))).status).to.equal(303);
    expect(await reservation(held.id)).to.deep.equal({ status: 'CONFIRMED' });
  });

  it('Fail: a decline code (51) through the same IPN and return', async () => {
    const { held, started, paymentUrl } = await startVnpay(5);
    const res = await server.request('POST', pathOf(paymentUrl), { rawBody: (() => { const data = new FormData(); data.set('outcome', 'fail'); return data; })() });
    expect(res.status).to.equal(303);
    expect(await reservation(held.id)).to.deep.equal({ status: 'HELD' });
    expect(await payment(started.paymentId)).to.include({ status: 'FAILED', gateway_response_code: '51' });
    expect(urlParams(res.headers.get('location')!)).to.include({ vnp_ResponseCode: '51', vnp_TransactionStatus: '02' });
  });

  it('refuses a changed payment URL as VNPay does (error page, no buttons, nothing recorded), and an unknown button with 400', async () => {
    const { held, started, paymentUrl } = await startVnpay(6);
    const tampered = new URL(paymentUrl);
    tampered.searchParams.set('vnp_Amount', '100');
    const page = await server.request<string>('GET', pathOf(tampered.toString()));
    expect(page.status).to.equal(200);
    expect(page.body).to.contain('Invalid signature').and.not.contain('<form');
    const posted = await server.request<string>('POST', pathOf(tampered.toString()), form('pay'));
    expect(posted.status).to.equal(200);
    expect(posted.body).to.contain('Invalid signature');
    const bad = await server.request<any>('POST', pathOf(paymentUrl), form('steal'));
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0]).to.include({ path: 'body/outcome' });
    expect(await reservation(held.id)).to.deep.equal({ status: 'HELD' });
    expect(await payment(started.paymentId)).to.include({ status: 'PENDING' });
    expect(await server.db.knex('payment_callbacks').where({ txn_ref: started.vnpay.txnRef })).to.have.length(0);
  });

  it('refunds a sandbox payment through the simulated merchant API (signed request and answer)', async () => {
    const { started, paymentUrl } = await startVnpay(7);
    await server.request('POST', pathOf(paymentUrl), form('pay'));
    const refund = await server.request<any>('POST', `/api/payments/${started.paymentId}/refunds`, { body: { amountVnd: 100_000, reason: 'sandbox refund' }, headers: asSuperuser });
    expect(refund.status, JSON.stringify(refund.body)).to.equal(201);
    expect(refund.body).to.include({ status: 'SUCCEEDED', amountVnd: 100_000 });
  });

  it('answers 404 on the sandbox routes, and offers no VNPay, when the sandbox is off', async () => {
    const { paymentUrl } = await startVnpay(8);
    const off = await startTestServer({ keepData: true, config: { vnpaySandbox: false } });
    try {
      const signed = new URL(paymentUrl).search;
      expect((await off.request('GET', '/api/payments/vnpay/sandbox' + signed)).status).to.equal(404);
      expect((await off.request('POST', '/api/payments/vnpay/sandbox' + signed, form('pay'))).status).to.equal(404);
      const held = await hold(off, { who: 9 });
      const res = await checkout(off, held, { method: 'VNPAY' });
      expect(res.status).to.equal(422);
    } finally {
      await off.close();
    }
  });
});

describe('payments: VNPAY_SANDBOX configuration', () => {
  it('is on by default outside production while VNPAY_* are unset, and can be turned off', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).vnpaySandbox).to.equal(true);
    expect(loadConfig({}).vnpaySandbox).to.equal(true);
    expect(loadConfig({ NODE_ENV: 'development', VNPAY_SANDBOX: 'false' }).vnpaySandbox).to.equal(false);
    expect(loadConfig({ NODE_ENV: 'development', VNPAY_TMN_CODE: 'VENUE001', VNPAY_HASH_SECRET: 'S' }).vnpaySandbox).to.equal(false);
    expect(loadConfig({ NODE_ENV: 'production', SEED_ADMIN_PASSWORD: 'x' }).vnpaySandbox).to.equal(false);
  });

  it('refuses to start with the sandbox in production, or with VNPay credentials, naming the setting', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', VNPAY_SANDBOX: 'true' })).to.throw(ConfigError, /VNPAY_SANDBOX/);
    expect(() => loadConfig({ NODE_ENV: 'development', VNPAY_SANDBOX: 'true', VNPAY_TMN_CODE: 'VENUE001', VNPAY_HASH_SECRET: 'S' })).to.throw(ConfigError, /VNPAY_SANDBOX/);
    expect(() => loadConfig({ VNPAY_SANDBOX: 'maybe' })).to.throw(ConfigError, /VNPAY_SANDBOX/);
  });

  it('knows whether PUBLIC_API_URL was set (unset: return URLs follow the listening address)', () => {
    expect(loadConfig({}).publicApiUrlExplicit).to.equal(false);
    expect(loadConfig({ PUBLIC_API_URL: 'https://api.venue.example/' })).to.include({ publicApiUrlExplicit: true, publicApiUrl: 'https://api.venue.example' });
  });

  it('keeps the development secret in DATA_DIR/dev-credentials.json (0600), beside what is there, so every process agrees', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-sandbox-'));
    try {
      const file = path.join(dir, 'dev-credentials.json');
      fs.writeFileSync(file, JSON.stringify({ superuserToken: 'dev_token' }));
      const secret = sandboxSecret({ nodeEnv: 'development', dataDir: dir });
      expect(secret).to.match(/^[0-9A-F]{64}$/);
      const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
      expect(stored).to.deep.equal({ superuserToken: 'dev_token', vnpaySandboxHashSecret: secret });
      expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
      // Another process (another DATA_DIR path spelling, same files) reads the same secret.
      expect(sandboxSecret({ nodeEnv: 'development', dataDir: `${dir}/.` })).to.equal(secret);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
