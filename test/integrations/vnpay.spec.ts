import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { loadConfig } from '../../server/platform/config.ts';
import {
  createVnpayClient,
  ipnResponse,
  normalizeOrderInfo,
  parseVnpayDate,
  vnpayDate,
  vnpayOptionsFromConfig,
  VnpayError,
  type CreatePaymentUrlInput,
  type VnpayClient,
} from '../../server/platform/integrations/vnpay.ts';
import { startFakeVnpay, type FakeVnpay } from '../helpers/fakeVnpay.ts';

const TMN = 'VENUE001';
const SECRET = 'TESTSECRETTESTSECRETTESTSECRET12';

/** Written here from VNPay's documentation, independently of the client and of the fake. */
const sha512 = (data: string, secret = SECRET) => createHmac('sha512', secret).update(data, 'utf8').digest('hex');

async function rejection(promise: Promise<unknown>): Promise<VnpayError> {
  try {
    await promise;
  } catch (err) {
    expect(err).to.be.instanceOf(VnpayError);
    return err as VnpayError;
  }
  throw new Error('expected a rejection');
}

function thrown(fn: () => unknown): VnpayError {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(VnpayError);
    return err as VnpayError;
  }
  throw new Error('expected an error');
}

describe('integrations: VNPay client (protocol 2.1.0)', () => {
  let fake: FakeVnpay;
  let vnpay: VnpayClient;
  beforeEach(async () => {
    fake = await startFakeVnpay({ tmnCode: TMN, secret: SECRET });
    vnpay = createVnpayClient({ tmnCode: TMN, hashSecret: SECRET, paymentUrl: fake.paymentUrl, apiUrl: fake.apiUrl, timeoutMs: 2000 });
  });
  afterEach(() => fake.close());

  const payment = (over: Partial<CreatePaymentUrlInput> = {}): CreatePaymentUrlInput => ({
    txnRef: 'R7K2Q9-1',
    amountVnd: 1_250_000,
    orderInfo: 'Đặt chỗ R7K2Q9: Show Á (2 khách)',
    locale: 'vn',
    ipAddr: '203.0.113.7',
    returnUrl: 'https://api.venue.example/api/payments/vnpay/return?x=1',
    createdAt: new Date('2026-11-23T17:30:05Z'),
    expiresAt: new Date('2026-11-23T17:45:05Z'),
    ...over,
  });

  describe('configuration', () => {
    it('defaults to the sandbox and to off; TMN code and secret go together; URLs are checked', () => {
      const config = loadConfig({});
      expect(config).to.include({
        vnpayTmnCode: undefined,
        vnpayHashSecret: undefined,
        vnpayPaymentUrl: 'https://sandbox.vnpayment.vn/paymentv2/vpcpay.html',
        vnpayApiUrl: 'https://sandbox.vnpayment.vn/merchant_webapi/api/transaction',
        vnpayTimeoutMs: 10_000,
        publicApiUrl: 'http://localhost:3000',
      });
      expect(createVnpayClient(vnpayOptionsFromConfig(config)).isConfigured).to.equal(false);
      expect(() => loadConfig({ VNPAY_TMN_CODE: TMN })).to.throw(/VNPAY_HASH_SECRET/);
      expect(() => loadConfig({ VNPAY_HASH_SECRET: SECRET })).to.throw(/VNPAY_TMN_CODE/);
      expect(() => loadConfig({ VNPAY_PAYMENT_URL: 'ftp://x' })).to.throw(/VNPAY_PAYMENT_URL/);
      expect(() => loadConfig({ VNPAY_TIMEOUT_MS: '5' })).to.throw(/VNPAY_TIMEOUT_MS/);
      const on = loadConfig({ VNPAY_TMN_CODE: TMN, VNPAY_HASH_SECRET: SECRET, PUBLIC_API_URL: 'https://api.venue.example/' });
      expect(on.publicApiUrl).to.equal('https://api.venue.example');
      expect(createVnpayClient(vnpayOptionsFromConfig(on)).isConfigured).to.equal(true);
    });

    it('unconfigured, it never pretends: no URL, no API call, no callback verifies', async () => {
      const off = createVnpayClient({ paymentUrl: fake.paymentUrl, apiUrl: fake.apiUrl, timeoutMs: 1000 });
      expect(off.isConfigured).to.equal(false);
      expect(thrown(() => off.createPaymentUrl(payment())).code).to.equal('not_configured');
      const refund = off.refund({ txnRef: 'R1', amountVnd: 1000, kind: 'full', transactionDate: new Date(), createdBy: 'admin', ipAddr: '127.0.0.1' });
      expect((await rejection(refund)).code).to.equal('not_configured');
      const query = fake.signCallback({ vnp_TmnCode: TMN, vnp_TxnRef: 'R1', vnp_Amount: '100000', vnp_ResponseCode: '00', vnp_TransactionStatus: '00' });
      expect(off.verifyCallback(query).valid).to.equal(false);
      expect(fake.apiRequests).to.have.length(0);
    });
  });

  describe('payment URL', () => {
    it('carries the vnp_* parameters sorted, amount ×100, GMT+7 dates, and a signature an independent check accepts', async () => {
      const url = vnpay.createPaymentUrl(payment({ bankCode: 'VNBANK' }));
      expect(url.startsWith(`${fake.paymentUrl}?`)).to.equal(true);
      const raw = url.slice(url.indexOf('?') + 1);
      const pairs = raw.split('&').map((p) => p.split('=') as [string, string]);
      const keys = pairs.map(([k]) => k);
      expect(keys.at(-1)).to.equal('vnp_SecureHash');
      expect(keys.slice(0, -1)).to.deep.equal([...keys.slice(0, -1)].sort());
      expect(keys).to.not.include('vnp_SecureHashType');
      const params = Object.fromEntries(pairs.map(([k, v]) => [k, decodeURIComponent(v.replace(/\+/g, ' '))]));
      expect(params).to.include({
        vnp_Version: '2.1.0',
        vnp_Command: 'pay',
        vnp_TmnCode: TMN,
        vnp_Amount: '125000000',
        vnp_CurrCode: 'VND',
        vnp_TxnRef: 'R7K2Q9-1',
        vnp_OrderInfo: 'Dat cho R7K2Q9: Show A 2 khach',
        vnp_OrderType: 'other',
        vnp_Locale: 'vn',
        vnp_ReturnUrl: 'https://api.venue.example/api/payments/vnpay/return?x=1',
        vnp_IpAddr: '203.0.113.7',
        vnp_BankCode: 'VNBANK',
        // 17:30:05 UTC is 00:30:05 the next day in Vietnam (GMT+7).
        vnp_CreateDate: '20261124003005',
        vnp_ExpireDate: '20261124004505',
      });
      // Spaces as '+', everything else as encodeURIComponent: what VNPay's Node.js sample signs.
      expect(raw).to.include('vnp_OrderInfo=Dat+cho+R7K2Q9%3A+Show+A+2+khach&');
      expect(raw).to.include('vnp_ReturnUrl=https%3A%2F%2Fapi.venue.example%2Fapi%2Fpayments%2Fvnpay%2Freturn%3Fx%3D1&');
      const signed = raw.slice(0, raw.indexOf('&vnp_SecureHash='));
      expect(params.vnp_SecureHash).to.equal(sha512(signed)).and.to.match(/^[0-9a-f]{128}$/);
      // The fake VNPay (its own decoding and signing) accepts it too.
      const page = (await (await fetch(url)).json()) as { valid: boolean; params: Record<string, string> };
      expect(page.valid).to.equal(true);
      expect(page.params.vnp_OrderInfo).to.equal('Dat cho R7K2Q9: Show A 2 khach');
    });

    it("reproduces the string-to-sign of VNPay's published example URL (known answer)", () => {
      // https://sandbox.vnpayment.vn/apis/docs/huong-dan-tich-hop/ — the example payment URL, without its hash.
      const published =
        'vnp_Amount=1806000&vnp_Command=pay&vnp_CreateDate=20210801153333&vnp_CurrCode=VND&vnp_IpAddr=127.0.0.1' +
        '&vnp_Locale=vn&vnp_OrderInfo=Thanh+toan+don+hang+%3A5&vnp_OrderType=other' +
        '&vnp_ReturnUrl=https%3A%2F%2Fdomainmerchant.vn%2FReturnUrl&vnp_TmnCode=DEMOV210&vnp_TxnRef=5&vnp_Version=2.1.0';
      const demo = createVnpayClient({ tmnCode: 'DEMOV210', hashSecret: SECRET, paymentUrl: 'https://pay.example/vpcpay.html', apiUrl: fake.apiUrl, timeoutMs: 1000 });
      const url = demo.createPaymentUrl({
        txnRef: '5',
        amountVnd: 18_060,
        orderInfo: 'Thanh toan don hang :5',
        locale: 'vn',
        ipAddr: '127.0.0.1',
        returnUrl: 'https://domainmerchant.vn/ReturnUrl',
        createdAt: new Date('2021-08-01T08:33:33Z'), // 15:33:33 in Vietnam
        expiresAt: new Date('2021-08-01T08:48:33Z'),
      });
      const raw = url.slice(url.indexOf('?') + 1);
      // The published example predates vnp_ExpireDate; everything else must match byte for byte.
      expect(raw).to.include('&vnp_ExpireDate=20210801154833&');
      const signed = raw.slice(0, raw.indexOf('&vnp_SecureHash=')).replace('&vnp_ExpireDate=20210801154833', '');
      expect(signed).to.equal(published);
      expect(raw.slice(raw.indexOf('&vnp_SecureHash=') + 16)).to.equal(sha512(raw.slice(0, raw.indexOf('&vnp_SecureHash='))));
    });

    it('refuses what VNPay would reject: bad amounts, references, URLs, locale, expiry', () => {
      for (const amountVnd of [0, -5, 10.5, 10_000_000_000, Number.NaN]) {
        expect(thrown(() => vnpay.createPaymentUrl(payment({ amountVnd }))).code).to.equal('invalid_input');
      }
      expect(thrown(() => vnpay.createPaymentUrl(payment({ txnRef: 'a b' }))).code).to.equal('invalid_input');
      expect(thrown(() => vnpay.createPaymentUrl(payment({ returnUrl: '/relative' }))).code).to.equal('invalid_input');
      expect(thrown(() => vnpay.createPaymentUrl(payment({ locale: 'vi' as 'vn' }))).code).to.equal('invalid_input');
      expect(thrown(() => vnpay.createPaymentUrl(payment({ expiresAt: new Date('2026-11-23T17:00:00Z') }))).code).to.equal('invalid_input');
      expect(thrown(() => vnpay.createPaymentUrl(payment({ orderInfo: '!!!' }))).code).to.equal('invalid_input');
      expect(vnpay.createPaymentUrl(payment({ ipAddr: '::ffff:10.0.0.9' }))).to.include('vnp_IpAddr=10.0.0.9&');
    });

    it('dates: yyyyMMddHHmmss in GMT+7 both ways; order info without diacritics or special characters', () => {
      expect(vnpayDate(new Date('2026-12-31T16:59:59Z'))).to.equal('20261231235959');
      expect(vnpayDate(new Date('2026-12-31T17:00:00Z'))).to.equal('20270101000000');
      expect(parseVnpayDate('20270101000000')?.toISOString()).to.equal('2026-12-31T17:00:00.000Z');
      expect(parseVnpayDate('20261301000000')).to.equal(undefined);
      expect(parseVnpayDate('2026')).to.equal(undefined);
      expect(normalizeOrderInfo("Thanh toán đơn hàng #12 (Đêm nhạc) – 'VIP'*~!")).to.equal('Thanh toan don hang #12 Dem nhac VIP');
    });
  });

  describe('return and IPN callbacks', () => {
    const callback = (over: Record<string, string> = {}) => ({
      vnp_Amount: '125000000',
      vnp_BankCode: 'NCB',
      vnp_BankTranNo: 'VNP14226112',
      vnp_CardType: 'ATM',
      vnp_OrderInfo: 'Dat cho R7K2Q9: Show A 2 khach',
      vnp_PayDate: '20261124003512',
      vnp_ResponseCode: '00',
      vnp_TmnCode: TMN,
      vnp_TransactionNo: '14226112',
      vnp_TransactionStatus: '00',
      vnp_TxnRef: 'R7K2Q9-1',
      ...over,
    });

    it('a callback signed by VNPay verifies and is read', () => {
      const query: Record<string, string> = { ...fake.signCallback(callback()), vnp_SecureHashType: 'HmacSHA512' };
      expect(vnpay.verifyCallback(query)).to.deep.equal({
        valid: true,
        txnRef: 'R7K2Q9-1',
        amountVnd: 1_250_000,
        responseCode: '00',
        transactionStatus: '00',
        transactionNo: '14226112',
        bankCode: 'NCB',
        bankTranNo: 'VNP14226112',
        cardType: 'ATM',
        payDate: '20261124003512',
        success: true,
      });
      // Upper-case hex is the same signature.
      expect(vnpay.verifyCallback({ ...query, vnp_SecureHash: query.vnp_SecureHash.toUpperCase() }).valid).to.equal(true);
    });

    it('a failed or cancelled payment verifies but is not a success', () => {
      const cancelled = vnpay.verifyCallback(fake.signCallback(callback({ vnp_ResponseCode: '24', vnp_TransactionStatus: '02' })));
      expect(cancelled).to.include({ valid: true, success: false, responseCode: '24' });
      const pending = vnpay.verifyCallback(fake.signCallback(callback({ vnp_TransactionStatus: '01' })));
      expect(pending).to.include({ valid: true, success: false });
    });

    it('tampering, another secret, another merchant, a missing or duplicated parameter: invalid', () => {
      const signed = fake.signCallback(callback());
      expect(vnpay.verifyCallback({ ...signed, vnp_Amount: '100' }).valid, 'amount').to.equal(false);
      expect(vnpay.verifyCallback({ ...signed, vnp_ResponseCode: '24' }).valid, 'code').to.equal(false);
      expect(vnpay.verifyCallback({ ...signed, vnp_Extra: '1' }).valid, 'added').to.equal(false);
      const flipped = signed.vnp_SecureHash.slice(0, -1) + (signed.vnp_SecureHash.endsWith('0') ? '1' : '0');
      expect(vnpay.verifyCallback({ ...signed, vnp_SecureHash: flipped }).valid, 'hash').to.equal(false);
      expect(vnpay.verifyCallback({ ...signed, vnp_SecureHash: 'abc' }).valid, 'short hash').to.equal(false);
      const { vnp_SecureHash: _omit, ...unsigned } = signed;
      expect(vnpay.verifyCallback(unsigned).valid, 'no hash').to.equal(false);
      expect(vnpay.verifyCallback(fake.signCallback(callback(), 'another-secret')).valid, 'secret').to.equal(false);
      expect(vnpay.verifyCallback(fake.signCallback(callback({ vnp_TmnCode: 'OTHER001' }))).valid, 'merchant').to.equal(false);
      expect(vnpay.verifyCallback({ ...signed, vnp_TxnRef: ['R7K2Q9-1', 'X'] }).valid, 'duplicated').to.equal(false);
      // Non-vnp parameters (ours on the return URL) are not part of the signature.
      expect(vnpay.verifyCallback({ ...signed, lang: 'en' }).valid).to.equal(true);
    });

    it('an amount that is not a whole VND is read as null (the IPN answers 04)', () => {
      expect(vnpay.verifyCallback(fake.signCallback(callback({ vnp_Amount: '12500050' })))).to.include({ valid: true, amountVnd: null });
      expect(vnpay.verifyCallback(fake.signCallback(callback({ vnp_Amount: '-100' })))).to.include({ amountVnd: null });
    });

    it("IPN answers are VNPay's {RspCode, Message}", () => {
      expect(ipnResponse.success()).to.deep.equal({ RspCode: '00', Message: 'Confirm Success' });
      expect(ipnResponse.orderNotFound()).to.deep.equal({ RspCode: '01', Message: 'Order not found' });
      expect(ipnResponse.alreadyConfirmed()).to.deep.equal({ RspCode: '02', Message: 'Order already confirmed' });
      expect(ipnResponse.invalidAmount()).to.deep.equal({ RspCode: '04', Message: 'Invalid amount' });
      expect(ipnResponse.invalidSignature()).to.deep.equal({ RspCode: '97', Message: 'Invalid signature' });
      expect(ipnResponse.unknownError()).to.deep.equal({ RspCode: '99', Message: 'Unknown error' });
    });
  });

  describe('refund API', () => {
    const refundInput = {
      txnRef: 'R7K2Q9-1',
      amountVnd: 400_000,
      kind: 'partial' as const,
      transactionNo: '14226112',
      transactionDate: new Date('2026-11-23T17:30:05Z'),
      createdBy: 'admin@venue.local',
      ipAddr: '10.0.0.2',
      createdAt: new Date('2026-11-25T03:00:00Z'),
    };

    it('posts a request signed over the documented fields; the signed answer is verified and typed', async () => {
      const result = await vnpay.refund(refundInput);
      expect(fake.apiRequests).to.have.length(1);
      const [{ body, checksumOk }] = fake.apiRequests;
      expect(checksumOk, 'the fake recomputed the request hash').to.equal(true);
      expect(body).to.include({
        vnp_Version: '2.1.0',
        vnp_Command: 'refund',
        vnp_TmnCode: TMN,
        vnp_TransactionType: '03',
        vnp_TxnRef: 'R7K2Q9-1',
        vnp_Amount: '40000000',
        vnp_TransactionNo: '14226112',
        vnp_TransactionDate: '20261124003005',
        vnp_CreateBy: 'admin@venue.local',
        vnp_CreateDate: '20261125100000',
        vnp_IpAddr: '10.0.0.2',
        vnp_OrderInfo: 'Hoan tien R7K2Q9-1',
      });
      expect(body.vnp_RequestId).to.match(/^[0-9a-f]{32}$/);
      // The documented order, recomputed here too.
      const data = [
        body.vnp_RequestId, '2.1.0', 'refund', TMN, '03', 'R7K2Q9-1', '40000000', '14226112', '20261124003005',
        'admin@venue.local', '20261125100000', '10.0.0.2', 'Hoan tien R7K2Q9-1',
      ].join('|');
      expect(body.vnp_SecureHash).to.equal(sha512(data));
      expect(result).to.include({
        ok: true,
        responseCode: '00',
        txnRef: 'R7K2Q9-1',
        amountVnd: 400_000,
        transactionNo: '14226112',
        transactionType: '03',
        transactionStatus: '05',
        bankCode: 'NCB',
      });
      await vnpay.refund({ ...refundInput, kind: 'full', transactionNo: undefined, transactionDate: '20261124003005' });
      expect(fake.apiRequests[1]).to.deep.include({ checksumOk: true });
      expect(fake.apiRequests[1].body).to.include({ vnp_TransactionType: '02', vnp_TransactionNo: '0', vnp_TransactionDate: '20261124003005' });
      expect(fake.apiRequests[1].body.vnp_RequestId).to.not.equal(body.vnp_RequestId);
    });

    it('a declined refund is a verified answer with ok: false', async () => {
      fake.state.mode = 'refund-declined';
      expect(await vnpay.refund(refundInput)).to.include({ ok: false, responseCode: '95' });
    });

    it('an answer whose signature does not match is an error, never a result', async () => {
      fake.state.mode = 'bad-response-hash';
      const err = await rejection(vnpay.refund(refundInput));
      expect(err.code).to.equal('bad_signature');
      expect(err.responseCode).to.equal('00');
      // A request signed with the wrong secret: the fake says 97, signed with the real one; we cannot trust it.
      fake.state.mode = 'ok';
      const wrong = createVnpayClient({ tmnCode: TMN, hashSecret: 'WRONGSECRET', paymentUrl: fake.paymentUrl, apiUrl: fake.apiUrl, timeoutMs: 2000 });
      expect((await rejection(wrong.refund(refundInput))).code).to.equal('bad_signature');
      expect(fake.apiRequests.at(-1)).to.deep.include({ checksumOk: false });
    });

    it('HTTP errors, non-JSON answers and time-outs are typed errors', async () => {
      fake.state.mode = 'http-500';
      const http = await rejection(vnpay.refund(refundInput));
      expect(http).to.include({ code: 'http_status', status: 500 });
      fake.state.mode = 'not-json';
      expect((await rejection(vnpay.refund(refundInput))).code).to.equal('bad_response');
      fake.state.mode = 'hang';
      const quick = createVnpayClient({ tmnCode: TMN, hashSecret: SECRET, paymentUrl: fake.paymentUrl, apiUrl: fake.apiUrl, timeoutMs: 200 });
      const started = Date.now();
      expect((await rejection(quick.refund(refundInput))).code).to.equal('timeout');
      expect(Date.now() - started).to.be.below(2000);
      const nowhere = createVnpayClient({ tmnCode: TMN, hashSecret: SECRET, paymentUrl: fake.paymentUrl, apiUrl: 'http://127.0.0.1:1/api', timeoutMs: 1000 });
      expect((await rejection(nowhere.refund(refundInput))).code).to.equal('network');
    });

    it('rejects bad input before sending anything', async () => {
      for (const bad of [{ amountVnd: 0 }, { amountVnd: 1.5 }, { transactionDate: '2026-11-23' }, { createdBy: 'a|b' }, { transactionNo: 'x' }, { requestId: 'has space' }]) {
        expect((await rejection(vnpay.refund({ ...refundInput, ...bad }))).code).to.equal('invalid_input');
      }
      expect(fake.apiRequests).to.have.length(0);
    });
  });

  describe('transaction query (querydr)', () => {
    it('signs the documented fields and verifies the answer (with its promotion fields)', async () => {
      const result = await vnpay.queryTransaction({
        txnRef: 'R7K2Q9-1',
        transactionDate: new Date('2026-11-23T17:30:05Z'),
        ipAddr: '10.0.0.2',
        requestId: 'q1',
        createdAt: new Date('2026-11-25T03:00:00Z'),
      });
      const [{ body, checksumOk }] = fake.apiRequests;
      expect(checksumOk).to.equal(true);
      const data = ['q1', '2.1.0', 'querydr', TMN, 'R7K2Q9-1', '20261124003005', '20261125100000', '10.0.0.2', 'Truy van R7K2Q9-1'].join('|');
      expect(body.vnp_SecureHash).to.equal(sha512(data));
      expect(result).to.include({ ok: true, paid: true, amountVnd: 50_000, transactionNo: '14226112', transactionStatus: '00' });
      fake.state.mode = 'bad-response-hash';
      expect((await rejection(vnpay.queryTransaction({ txnRef: 'R7K2Q9-1', transactionDate: '20261124003005', ipAddr: '10.0.0.2' }))).code).to.equal(
        'bad_signature',
      );
    });
  });
});
