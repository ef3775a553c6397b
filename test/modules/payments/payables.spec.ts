import { expect } from 'chai';
import { subscriber, type PaymentOutcomeEvent } from '../../../server/domain/events.ts';
import type { Payable, PayableState } from '../../../server/domain/payables.ts';
import { PAYABLES } from '../../../server/modules/index.ts';
import { checkoutPayable as startCheckout } from '../../../server/modules/payments/index.ts';
import { asSuperuser } from '../../helpers/server.ts';
import { callbackFor, ipn, paidByVnpay, paymentsSpec, PUBLIC_API, query, urlParams } from './helpers.ts';

/**
 * Another payable (issue 33 §4), added the way a new engineer adds one: a gift-voucher-like order, defined here — its
 * own table, its `Payable` (kind `test_voucher_order`: the real `voucher_order` is the giftVouchers module's, tested
 * in test/modules/giftVouchers/), and a place in the list of payables — and nothing else. No VNPay code knows it: the
 * order is paid through payments' checkout and VNPay's signed IPN (the fake VNPay), shown by the browser return,
 * and refunded through the admin refund route and VNPay's refund API, like a reservation.
 */

const TABLE = 'test_gift_voucher_orders';

/** What the payments module told the voucher orders, in order. */
const told: string[] = [];

const voucherState = (row: { id: string; code: string; amount_vnd: number; status: string }): PayableState => ({
  id: row.id,
  totalVnd: row.amount_vnd,
  currency: 'VND',
  reference: row.code,
  txnRefPrefix: row.code.replace(/-/g, ''),
  orderInfo: `Thanh toan the qua tang ${row.code}`,
  refundInfo: `Hoan tien the qua tang ${row.code}`,
  locale: 'en',
  payBy: null,
  // The guest's return page shows reservation statuses only; an order has none of those.
  status: null,
  reservationId: null,
  refusal: () => (row.status === 'OPEN' ? null : { code: 'nothing_to_pay', detail: 'This voucher order is not open.' }),
});

const giftVoucherOrders: Payable = {
  kind: 'test_voucher_order',
  noun: 'voucher order',
  async lock(ctx, id) {
    const row = await ctx.trx(TABLE).where({ id }).forUpdate().first();
    return row ? voucherState(row) : undefined;
  },
  async view(knex, id) {
    const row = await knex(TABLE).where({ id }).first();
    return row ? voucherState(row) : undefined;
  },
  async onPaid(ctx, order, payment) {
    told.push(`paid ${order.reference} ${payment.amountVnd} via ${payment.via}`);
    await ctx.trx(TABLE).where({ id: order.id }).update({ status: 'PAID' });
    return null;
  },
  async onPaymentFailed(ctx, id, payment) {
    told.push(`failed ${payment.amountVnd}`);
    await ctx.trx(TABLE).where({ id }).update({ failures: ctx.trx.raw('failures + 1') });
  },
  async onRefunded(ctx, id, payment) {
    told.push(`refunded ${payment.refundVnd} of ${payment.amountVnd}`);
    await ctx.trx(TABLE).where({ id }).update({ status: payment.refundedVnd >= payment.amountVnd ? 'REFUNDED' : 'PAID', refunded_vnd: payment.refundedVnd });
  },
};

describe('payments: a second payable (a gift-voucher order defined in this spec) @db', () => {
  const spec = paymentsSpec({ payables: [...PAYABLES, giftVoucherOrders] });
  let serial = 0;
  const seen: PaymentOutcomeEvent[] = [];
  let detach: Array<() => void> = [];

  before(async () => {
    await spec.server.db.knex.schema.dropTableIfExists(TABLE);
    await spec.server.db.knex.schema.createTable(TABLE, (t) => {
      t.uuid('id').primary().defaultTo(spec.server.db.knex.raw('gen_random_uuid()'));
      t.text('code').notNullable();
      t.integer('amount_vnd').notNullable();
      t.text('status').notNullable().defaultTo('OPEN');
      t.integer('refunded_vnd').notNullable().defaultTo(0);
      t.integer('failures').notNullable().defaultTo(0);
    });
    detach = (['payment.captured', 'payment.failed', 'payment.refunded'] as const).map((event) =>
      spec.server.app.context.events.attachForTest(subscriber({ name: `test.${event}`, event, phase: 'in-transaction', order: 1000, handle: (payload) => void seen.push(payload) })),
    );
  });
  after(async () => {
    for (const remove of detach) remove();
    await spec.server.db.knex.schema.dropTableIfExists(TABLE);
  });
  beforeEach(() => {
    told.length = 0;
    seen.length = 0;
  });

  async function order(amountVnd: number) {
    const code = `GV-${++serial}${Date.now().toString(36).toUpperCase()}`;
    const [row] = await spec.server.db.knex(TABLE).insert({ code, amount_vnd: amountVnd }).returning(['id', 'code']);
    return row as { id: string; code: string };
  }
  const orderRow = (id: string) => spec.server.db.knex(TABLE).where({ id }).first();
  const checkoutOf = (id: string) => startCheckout(spec.server.app.context, { kind: 'test_voucher_order', id }, { method: 'VNPAY' }, '203.0.113.9', PUBLIC_API);

  it('is paid through checkout and a signed IPN, once; its payment rows carry the payable; it is refunded through VNPay, once', async () => {
    const gift = await order(500_000);
    const started = await checkoutOf(gift.id);
    expect(started).to.include({ method: 'VNPAY', reference: gift.code, amountVnd: 500_000, holdExpiresAt: null });
    const sent = urlParams(started.vnpay!.paymentUrl);
    expect(sent).to.include({ vnp_Amount: '50000000', vnp_OrderInfo: `Thanh toan the qua tang ${gift.code}`, vnp_Locale: 'en' });
    expect(sent.vnp_TxnRef).to.match(new RegExp(`^${gift.code.replace('-', '')}-[0-9A-F]{8}$`));

    const params = callbackFor(spec.vnpay, started.vnpay!.paymentUrl);
    expect((await ipn(spec.server, params)).body).to.deep.equal({ RspCode: '00', Message: 'Confirm Success' });
    expect((await ipn(spec.server, params)).body.RspCode).to.equal('02'); // a replay changes nothing
    expect(told).to.deep.equal([`paid ${gift.code} 500000 via gateway`]);
    expect((await orderRow(gift.id)).status).to.equal('PAID');
    const payment = await spec.server.db.knex('payments').where({ id: started.paymentId }).first();
    expect(payment).to.include({ payable_kind: 'test_voucher_order', payable_id: gift.id, reservation_id: null, status: 'SUCCEEDED', amount_vnd: 500_000 });
    expect(seen.map((e) => [e.payableKind, e.payableId, e.reservationId, e.paymentId])).to.deep.equal([['test_voucher_order', gift.id, undefined, payment.id]]);
    // Paid in full: another checkout has nothing to pay.
    let refused: unknown;
    await checkoutOf(gift.id).catch((err) => (refused = err));
    expect(refused).to.include({ status: 409, code: 'nothing_to_pay' });

    // The browser's return shows the verified result and the order's reference.
    const back = await spec.server.request<any>('GET', `/api/payments/vnpay/return?${query(params)}`);
    expect(back.body).to.deep.equal({ valid: true, gatewaySuccess: true, responseCode: '00', paymentStatus: 'SUCCEEDED', reservationReference: gift.code, reservationStatus: null });

    const refund = await spec.server.request<any>('POST', `/api/payments/${payment.id}/refunds`, { headers: asSuperuser, body: { amountVnd: 500_000, reason: 'changed my mind' } });
    expect(refund.status, JSON.stringify(refund.body)).to.equal(201);
    expect(refund.body).to.include({ status: 'SUCCEEDED', amountVnd: 500_000 });
    expect(spec.vnpay.apiRequests.map((r) => [r.checksumOk, r.body.vnp_TxnRef, r.body.vnp_OrderInfo])).to.deep.equal([[true, sent.vnp_TxnRef, `Hoan tien the qua tang ${gift.code}`]]);
    expect(told).to.deep.equal([`paid ${gift.code} 500000 via gateway`, 'refunded 500000 of 500000']);
    expect(await orderRow(gift.id)).to.include({ status: 'REFUNDED', refunded_vnd: 500_000 });
    expect(await spec.server.db.knex('payments').where({ id: payment.id }).first()).to.include({ status: 'REFUNDED', refunded_vnd: 500_000, payable_kind: 'test_voucher_order' });
    expect(seen.map((e) => [e.payableKind, e.payableId, e.refundedVnd])).to.deep.equal([
      ['test_voucher_order', gift.id, 0],
      ['test_voucher_order', gift.id, 500_000],
    ]);
    // A refund of a voucher order writes no reservation's e-mail.
    expect(await spec.server.db.knex('email_messages').whereIn('template', ['refund-completed', 'refund-failed'])).to.have.length(0);
  });

  it('a failure code marks the payment FAILED and tells the order once; the order can try again', async () => {
    const gift = await order(250_000);
    const started = await checkoutOf(gift.id);
    const params = callbackFor(spec.vnpay, started.vnpay!.paymentUrl, { vnp_ResponseCode: '24', vnp_TransactionStatus: '02' });
    expect((await ipn(spec.server, params)).body.RspCode).to.equal('00');
    expect((await ipn(spec.server, params)).body.RspCode).to.equal('02');
    expect(told).to.deep.equal(['failed 250000']);
    expect(await orderRow(gift.id)).to.include({ status: 'OPEN', failures: 1 });
    expect(await spec.server.db.knex('payments').where({ id: started.paymentId }).first()).to.include({ status: 'FAILED', payable_kind: 'test_voucher_order', payable_id: gift.id });
    expect((await checkoutOf(gift.id)).amountVnd).to.equal(250_000);
    // Paying at the venue is a reservation's (it says what to tell the guest); an order without that text is not offered it.
    let refused: unknown;
    await startCheckout(spec.server.app.context, { kind: 'test_voucher_order', id: gift.id }, { method: 'PAY_AT_VENUE' }, '203.0.113.9', PUBLIC_API).catch((err) => (refused = err));
    expect(refused).to.include({ status: 422, code: 'payment_method_unavailable' });
  });

  it('a reservation is still the payable it was: its payments carry (reservation, its id) and reservation_id', async () => {
    const { held, paymentId } = await paidByVnpay(spec);
    expect(await spec.server.db.knex('payments').where({ id: paymentId }).first()).to.include({ payable_kind: 'reservation', payable_id: held.id, reservation_id: held.id });
    expect(seen.map((e) => [e.payableKind, e.payableId, e.reservationId])).to.deep.equal([['reservation', held.id, held.id]]);
    expect(told).to.deep.equal([]);
    // A row written the old way (reservation_id alone: fixtures, seed scripts) is the reservation's payment.
    const [old] = await spec.server.db
      .knex('payments')
      .insert({ reservation_id: held.id, gateway: 'CASH', status: 'SUCCEEDED', amount_vnd: 1_000, txn_ref: `OLD${Date.now()}`, succeeded_at: new Date() })
      .returning(['payable_kind', 'payable_id']);
    expect(old).to.deep.equal({ payable_kind: 'reservation', payable_id: held.id });
  });
});
