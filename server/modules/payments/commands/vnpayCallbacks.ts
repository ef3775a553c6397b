import type { Knex } from 'knex';
import type { AppContext } from '../../../platform/context.ts';
import { Problem } from '../../../platform/http/problem.ts';
import { ipnResponse, parseVnpayDate, type CallbackQuery, type IpnAnswer } from '../../../platform/integrations/vnpay.ts';
import { BUSINESS_EVENTS, captureBusinessEvent } from '../../booking/index.ts';
import { confirmReservation, inTransition, lockReservation, type TransitionContext } from '../../booking/index.ts';
import { effectiveStatus, type ReservationStatus } from '../../booking/index.ts';
import { publishPaymentOutcome } from '../hooks.ts';
import { vnpayOf, type PaymentRow, type PaymentStatus } from '../service.ts';
import { requestRefund } from './refunds.ts';

/**
 * VNPay's two callbacks (issue 9). Both verify the signature first (constant time, our TMN code) and are audited
 * into `payment_callbacks` whatever happens. Only the IPN (server to server) changes anything; the browser return
 * shows the result.
 */

/** The `vnp_*` parameters as received (single values; a repeated key keeps its first value), for the audit. */
function auditParams(query: CallbackQuery): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (!key.startsWith('vnp_')) continue;
    const single = Array.isArray(value) ? value[0] : value;
    if (single !== undefined) params[key] = String(single).slice(0, 1000);
  }
  return params;
}

async function audit(knex: Knex, row: { kind: 'IPN' | 'RETURN'; paymentId: string | null; txnRef: string | undefined; params: Record<string, string>; valid: boolean; outcome: string | null }) {
  await knex('payment_callbacks').insert({
    gateway: 'VNPAY',
    kind: row.kind,
    payment_id: row.paymentId,
    txn_ref: row.txnRef?.slice(0, 200) ?? null,
    params: JSON.stringify(row.params),
    signature_valid: row.valid,
    outcome: row.outcome,
  });
}

/**
 * The IPN: 97 bad signature, 01 unknown `vnp_TxnRef`, 04 wrong amount, 02 already processed, 00 recorded, 99
 * anything else. Success: payment SUCCEEDED (+ hooks), then the reservation confirmed by the payment; when it
 * cannot take the money (cancelled, seats released, already paid in full) the money stays recorded and a refund
 * of it is requested (the VNPay refund job sends it). Failure code: payment FAILED (+ hooks). Locks in the
 * lifecycle's order: event → reservation → payment. Events after the commit.
 */
export async function handleIpn(app: AppContext, query: CallbackQuery): Promise<IpnAnswer> {
  const knex = app.db.knex;
  const params = auditParams(query);
  const callback = vnpayOf(app).verifyCallback(query);
  if (!callback.valid) {
    await audit(knex, { kind: 'IPN', paymentId: null, txnRef: callback.txnRef, params, valid: false, outcome: '97' });
    return ipnResponse.invalidSignature();
  }
  let paymentId: string | null = null;
  try {
    return await inTransition(app, 'SYSTEM', async (ctx) => {
      const found = callback.txnRef ? ((await ctx.trx('payments').where({ txn_ref: callback.txnRef, gateway: 'VNPAY' }).first('id', 'reservation_id')) as { id: string; reservation_id: string } | undefined) : undefined;
      const answer = found ? await applyIpn(ctx, found, callback) : ipnResponse.orderNotFound();
      paymentId = found?.id ?? null;
      await audit(ctx.trx, { kind: 'IPN', paymentId, txnRef: callback.txnRef, params, valid: true, outcome: answer.RspCode });
      return answer;
    });
  } catch (err) {
    app.logger.error({ err, txnRef: callback.txnRef }, 'a VNPay IPN could not be processed');
    await audit(knex, { kind: 'IPN', paymentId, txnRef: callback.txnRef, params, valid: true, outcome: '99' }).catch(() => undefined);
    return ipnResponse.unknownError();
  }
}

type VerifiedCallback = ReturnType<ReturnType<typeof vnpayOf>['verifyCallback']>;

async function applyIpn(ctx: TransitionContext, found: { id: string; reservation_id: string }, callback: VerifiedCallback): Promise<IpnAnswer> {
  const reservation = await ctx.trx('reservations').where({ id: found.reservation_id }).first('show_event_id');
  await ctx.trx('show_events').where({ id: reservation.show_event_id }).forUpdate().first('id');
  await lockReservation(ctx.trx, found.reservation_id);
  const payment = (await ctx.trx('payments').where({ id: found.id }).forUpdate().first()) as PaymentRow;
  if (callback.amountVnd === null || callback.amountVnd !== payment.amount_vnd) return ipnResponse.invalidAmount();
  if (payment.status !== 'PENDING') return ipnResponse.alreadyConfirmed();

  const gatewayFields = {
    gateway_transaction_id: callback.transactionNo?.slice(0, 100) ?? null,
    bank_code: callback.bankCode?.slice(0, 50) ?? null,
    card_type: callback.cardType?.slice(0, 50) ?? null,
    gateway_response_code: callback.responseCode?.slice(0, 10) ?? null,
    gateway_paid_at: parseVnpayDate(callback.payDate) ?? null,
    updated_at: ctx.now,
  };
  const hookContext = { ...ctx, paymentId: payment.id, reservationId: payment.reservation_id, gateway: payment.gateway, amountVnd: payment.amount_vnd, refundedVnd: 0 };

  if (!callback.success) {
    await ctx.trx('payments').where({ id: payment.id }).update({ ...gatewayFields, status: 'FAILED' satisfies PaymentStatus, failed_at: ctx.now });
    await publishPaymentOutcome({ ...hookContext, outcome: 'FAILED' });
    ctx.afterCommit(() =>
      captureBusinessEvent(ctx.app, BUSINESS_EVENTS.paymentFailed, payment.reservation_id, { payment_gateway: 'VNPAY', payment_status: 'FAILED', amount_vnd: payment.amount_vnd, gateway_response_code: callback.responseCode ?? null }),
    );
    return ipnResponse.success();
  }

  await ctx.trx('payments').where({ id: payment.id }).update({ ...gatewayFields, status: 'SUCCEEDED' satisfies PaymentStatus, succeeded_at: ctx.now });
  await publishPaymentOutcome({ ...hookContext, outcome: 'SUCCEEDED' });
  ctx.afterCommit(() =>
    captureBusinessEvent(ctx.app, BUSINESS_EVENTS.paymentCompleted, payment.reservation_id, { payment_gateway: 'VNPAY', payment_status: 'SUCCESS', amount_vnd: payment.amount_vnd }),
  );

  // The reservation takes the money, or the money goes back: never lost, never kept for nothing.
  const refundReason = await confirmOrRefundReason(ctx, payment);
  if (refundReason) {
    ctx.app.logger.warn({ paymentId: payment.id, reservationId: payment.reservation_id, reason: refundReason }, 'a VNPay payment cannot be used by its reservation; a refund is requested');
    await requestRefund(ctx, payment.id, { amountVnd: payment.amount_vnd, reason: refundReason, requestedBy: 'SYSTEM', onSite: 'pending', vnpayJobDelaySeconds: 0 });
  }
  return ipnResponse.success();
}

/** Confirms the reservation by this payment; a reason to refund it when the reservation cannot take it. */
async function confirmOrRefundReason(ctx: TransitionContext, payment: PaymentRow): Promise<string | null> {
  const reservation = await ctx.trx('reservations').where({ id: payment.reservation_id }).first('status', 'total_vnd');
  if (reservation.status === 'CANCELLED') return 'reservation_cancelled: the reservation was cancelled before the payment arrived';
  const paidBefore = await ctx
    .trx('payments')
    .where({ reservation_id: payment.reservation_id })
    .whereNot({ id: payment.id })
    .whereIn('status', ['SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED'])
    .first(ctx.trx.raw('coalesce(sum(amount_vnd - refunded_vnd), 0) as net'));
  if (Number(paidBefore?.net ?? 0) >= reservation.total_vnd) return 'already_paid: the reservation was already paid in full';
  try {
    await confirmReservation(ctx, payment.reservation_id, { by: 'PAYMENT' });
    return null;
  } catch (err) {
    if (err instanceof Problem && err.status === 409) return `${err.code}: ${err.detail ?? err.message}`;
    throw err;
  }
}

export interface ReturnResult {
  valid: boolean;
  gatewaySuccess: boolean;
  responseCode: string | null;
  paymentStatus: PaymentStatus | null;
  reservationReference: string | null;
  reservationStatus: ReservationStatus | null;
}

/** The browser return: verifies and reports; writes only its audit row. */
export async function handleReturn(app: AppContext, query: CallbackQuery): Promise<ReturnResult> {
  const knex = app.db.knex;
  const callback = vnpayOf(app).verifyCallback(query);
  const row =
    callback.valid && callback.txnRef
      ? ((await knex('payments as p').join('reservations as r', 'r.id', 'p.reservation_id').where({ 'p.txn_ref': callback.txnRef, 'p.gateway': 'VNPAY' }).first('p.id', 'p.status', 'r.reference', 'r.status as reservation_status', 'r.hold_expires_at')) as
          | { id: string; status: PaymentStatus; reference: string; reservation_status: ReservationStatus; hold_expires_at: Date | null }
          | undefined)
      : undefined;
  await audit(knex, { kind: 'RETURN', paymentId: row?.id ?? null, txnRef: callback.txnRef, params: auditParams(query), valid: callback.valid, outcome: callback.valid ? (callback.responseCode ?? null) : '97' });
  return {
    valid: callback.valid,
    gatewaySuccess: callback.valid && callback.success,
    responseCode: callback.valid ? (callback.responseCode?.slice(0, 10) ?? null) : null,
    paymentStatus: row?.status ?? null,
    reservationReference: row?.reference ?? null,
    reservationStatus: row ? effectiveStatus({ status: row.reservation_status, hold_expires_at: row.hold_expires_at }, new Date()) : null,
  };
}
