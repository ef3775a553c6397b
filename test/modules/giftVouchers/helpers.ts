import { expect } from 'chai';
import type { TestServer } from '../../helpers/server.ts';
import { localToday, addDays } from '../../../server/domain/venueTime.ts';
import { callbackFor, fromNewAddress, ipn } from '../payments/helpers.ts';
import type { FakeVnpay } from '../../helpers/fakeVnpay.ts';
export { hasPdftotext, pdfBytesText } from '../exports/helpers.ts';

/** Gift vouchers sold online (issue 36 §1): a purchase, its checkout and its IPN, as the specs drive them. */

export const ZONE = 'Asia/Ho_Chi_Minh';
export const today = () => localToday(ZONE);
export const daysAhead = (days: number) => addDays(today(), days);

export function purchaseBody(overrides: Record<string, unknown> = {}) {
  return {
    amountVnd: 1_000_000,
    buyer: { name: 'Nguyễn Thị Lan', email: 'lan.nguyen@example.com' },
    recipient: { name: 'Trần Minh Đức', email: 'duc.tran@example.com' },
    message: 'Chúc mừng sinh nhật! Hẹn gặp ở nhà hát.',
    deliveryDate: daysAhead(10),
    locale: 'vi',
    ...overrides,
  };
}

export function purchase(server: TestServer, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return server.request<any>('POST', '/api/public/gift-vouchers', { body, headers: { ...fromNewAddress(), ...headers } });
}

export interface Ordered {
  id: string;
  reference: string;
  token: string;
}

/** A PENDING order bought through the public API. */
export async function order(server: TestServer, overrides: Record<string, unknown> = {}): Promise<Ordered> {
  const res = await purchase(server, purchaseBody(overrides));
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  const row = await server.db.knex('gift_voucher_orders').where({ reference: res.body.reference }).first('id');
  return { id: row.id, reference: res.body.reference, token: res.body.accessToken };
}

export function checkout(server: TestServer, ordered: Pick<Ordered, 'reference' | 'token'>, body: Record<string, unknown> = { method: 'VNPAY' }) {
  return server.request<any>('POST', `/api/public/gift-vouchers/orders/${ordered.reference}/checkout`, { body, headers: { 'x-gift-order-token': ordered.token, ...fromNewAddress() } });
}

/** Order → VNPay checkout → the successful IPN: a PAID order; answers the IPN's parameters (to replay them). */
export async function paidOrder(spec: { server: TestServer; vnpay: FakeVnpay }, overrides: Record<string, unknown> = {}) {
  const ordered = await order(spec.server, overrides);
  const started = await checkout(spec.server, ordered);
  expect(started.status, JSON.stringify(started.body)).to.equal(201);
  const params = callbackFor(spec.vnpay, started.body.vnpay.paymentUrl);
  expect((await ipn(spec.server, params)).body).to.deep.equal({ RspCode: '00', Message: 'Confirm Success' });
  return { ...ordered, params, paymentId: started.body.paymentId as string };
}

