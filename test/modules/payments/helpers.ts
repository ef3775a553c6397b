import { expect } from 'chai';
import type { Payable } from '../../../server/domain/payables.ts';
import type { Config } from '../../../server/platform/config.ts';
import { createLogger } from '../../../server/platform/logger.ts';
import { jobs as paymentJobs } from '../../../server/modules/payments/jobs.ts';
import { startFakeVnpay, type FakeVnpay } from '../../helpers/fakeVnpay.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { bookableEvent, contact } from '../booking/factories.ts';

export const TMN = 'VENUE001';
export const SECRET = 'TESTSECRET0123456789ABCDEFGHIJKL';
export const PUBLIC_API = 'https://api.venue.test';
export const BANK = { accountName: 'CONG TY GIAI TRI VENUE', accountNumber: '0071000123456', bankName: 'Vietcombank' };

/** A spec's fake VNPay and server (VNPay configured, bank transfer configured, CASH enabled in the setup). */
export function paymentsSpec(options: { vnpay?: boolean; bank?: boolean; cash?: boolean; config?: () => Partial<Config>; payables?: readonly Payable[] } = {}) {
  const spec = { server: undefined as unknown as TestServer, vnpay: undefined as unknown as FakeVnpay };
  before(async () => {
    spec.vnpay = await startFakeVnpay({ tmnCode: TMN, secret: SECRET });
    spec.server = await startTestServer({
      config: {
        trustProxy: true,
        publicApiUrl: PUBLIC_API,
        publicApiUrlExplicit: true,
        // These specs talk to a fake VNPay; the development sandbox (sandbox.spec.ts) is off.
        vnpaySandbox: false,
        vnpayPaymentUrl: spec.vnpay.paymentUrl,
        vnpayApiUrl: spec.vnpay.apiUrl,
        vnpayTimeoutMs: 1_000,
        ...(options.vnpay === false ? {} : { vnpayTmnCode: TMN, vnpayHashSecret: SECRET }),
        ...(options.bank === false ? {} : { bankTransfer: BANK }),
        ...options.config?.(),
      },
      payables: options.payables,
    });
  });
  beforeEach(async () => {
    spec.vnpay.state.mode = 'ok';
    spec.vnpay.apiRequests.length = 0;
    await spec.server.db.knex('commercial_setup').update({ payment_gateways: JSON.stringify(options.cash === false ? ['VNPAY'] : ['VNPAY', 'CASH']) });
  });
  after(async () => {
    await spec.server.close();
    await spec.vnpay.close();
  });
  return spec;
}

let ip = 0;
export const fromNewAddress = () => ({ 'x-forwarded-for': `198.18.${(++ip >> 8) & 255}.${ip & 255}` });

export interface Held {
  id: string;
  reference: string;
  token: string;
  totalVnd: number;
  eventId: string;
}

/** A HELD reservation booked through the public API. */
export async function hold(server: TestServer, options: { guests?: number; capacity?: number; eventSlug?: string; offerCode?: string; who?: number; extra?: Record<string, unknown> } = {}): Promise<Held> {
  let eventSlug = options.eventSlug;
  let offerCode = options.offerCode;
  if (!eventSlug || !offerCode) {
    const { event, offer } = await bookableEvent({ capacity: options.capacity });
    eventSlug = event.slug;
    offerCode = offer.code;
  }
  const res = await server.request<any>('POST', '/api/public/reservations', {
    body: { eventSlug, offerCode, guestCount: options.guests ?? 2, contact: contact(options.who ?? 1), ...options.extra },
    headers: fromNewAddress(),
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  const row = await server.db.knex('reservations').where({ reference: res.body.reference }).first('id', 'total_vnd', 'show_event_id');
  return { id: row.id, reference: res.body.reference, token: res.body.accessToken, totalVnd: row.total_vnd, eventId: row.show_event_id };
}

export function checkout(server: TestServer, held: Pick<Held, 'reference' | 'token'>, body: Record<string, unknown>) {
  return server.request<any>('POST', `/api/public/reservations/${held.reference}/checkout`, { body, headers: { 'x-reservation-token': held.token, ...fromNewAddress() } });
}

/** The `vnp_*` parameters of a payment URL. */
export const urlParams = (paymentUrl: string) => Object.fromEntries(new URL(paymentUrl).searchParams.entries());

/** What VNPay sends to the return and IPN URLs for the attempt of `paymentUrl`, signed by the fake. */
export function callbackFor(vnpay: FakeVnpay, paymentUrl: string, overrides: Record<string, string> = {}, secret?: string): Record<string, string> {
  const sent = urlParams(paymentUrl);
  const params: Record<string, string> = {
    vnp_Amount: sent.vnp_Amount,
    vnp_BankCode: 'NCB',
    vnp_BankTranNo: 'VNP14226112',
    vnp_CardType: 'ATM',
    vnp_OrderInfo: sent.vnp_OrderInfo,
    vnp_PayDate: '20261123210501',
    vnp_ResponseCode: '00',
    vnp_TmnCode: sent.vnp_TmnCode,
    vnp_TransactionNo: '14226112',
    vnp_TransactionStatus: '00',
    vnp_TxnRef: sent.vnp_TxnRef,
    ...overrides,
  };
  return vnpay.signCallback(params, secret);
}

export const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

export const ipn = (server: TestServer, params: Record<string, string>) => server.request<any>('GET', `/api/payments/vnpay/ipn?${query(params)}`);

/** Hold → VNPay checkout → successful IPN: a CONFIRMED reservation and its SUCCEEDED payment. */
export async function paidByVnpay(spec: { server: TestServer; vnpay: FakeVnpay }, options: Parameters<typeof hold>[1] = {}) {
  const held = await hold(spec.server, options);
  const started = await checkout(spec.server, held, { method: 'VNPAY' });
  expect(started.status, JSON.stringify(started.body)).to.equal(201);
  const answer = await ipn(spec.server, callbackFor(spec.vnpay, started.body.vnpay.paymentUrl));
  expect(answer.body).to.deep.equal({ RspCode: '00', Message: 'Confirm Success' });
  return { held, paymentId: started.body.paymentId as string, paymentUrl: started.body.vnpay.paymentUrl as string };
}

/** Runs the `payments.vnpay-refund` job's handler once, as the engine would. */
export async function runRefundJob(server: TestServer, refundId: string) {
  const [definition] = paymentJobs;
  return definition.handler({ refundId }, { id: 'test', queue: definition.name, attempt: 1, retryLimit: definition.retryLimit, createdOn: new Date(), log: createLogger('silent'), app: server.app.context });
}

/** The `payments.vnpay-refund` jobs queued (their refund ids). */
export async function queuedRefundJobs(server: TestServer): Promise<string[]> {
  const { rows } = (await server.db.knex.raw("select data from pgboss.job where name = 'payments.vnpay-refund' order by created_on")) as { rows: Array<{ data: { refundId: string } }> };
  return rows.map((row) => row.data.refundId);
}
