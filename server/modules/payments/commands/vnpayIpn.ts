import type { AppContext } from '../../../platform/context.ts';
import { Problem } from '../../../platform/http/problem.ts';
import { ipnResponse, parseVnpayDate, type CallbackQuery, type IpnAnswer } from '../../../platform/integrations/vnpay.ts';
import { BUSINESS_EVENTS, captureBusinessEvent } from '../../booking/index.ts';
import { confirmReservation, lockedReservation } from '../../booking/index.ts';
import { inTransition, type TransitionContext } from '../../../domain/unitOfWork.ts';
import { publishPaymentOutcome } from '../hooks.ts';
import { Payment } from '../models.ts';
import { lockEventOfReservation, netPaidBefore, reservationStanding } from '../queries.ts';
import { vnpayOf } from '../vnpay.ts';
import { auditCallback, auditParams } from './auditCallback.ts';
import { requestRefund } from './requestRefund.ts';

/**
 * VNPay's callbacks (issue 9): the IPN, server to server, the only one that changes anything (the browser's return
 * only shows the result: ./vnpayReturn.ts). It verifies the signature first (constant time, our TMN code) and is
 * audited into `payment_callbacks` whatever happens.
 */

/**
 * The IPN: 97 bad signature, 01 unknown `vnp_TxnRef`, 04 wrong amount, 02 already processed, 00 recorded, 99
 * anything else. Success: payment SUCCEEDED (+ hooks), then the reservation confirmed by the payment; when it
 * cannot take the money (cancelled, seats released, already paid in full) the money stays recorded and a refund
 * of it is requested (the VNPay refund job sends it). Failure code: payment FAILED (+ hooks). Locks in the
 * lifecycle's order: event → reservation → payment. Events after the commit.
 */
export async function vnpayIpn(app: AppContext, query: CallbackQuery): Promise<IpnAnswer> {
  const knex = app.db.knex;
  const params = auditParams(query);
  const callback = vnpayOf(app).verifyCallback(query);
  if (!callback.valid) {
    await auditCallback(knex, { kind: 'IPN', paymentId: null, txnRef: callback.txnRef, params, valid: false, outcome: '97' });
    return ipnResponse.invalidSignature();
  }
  let paymentId: string | null = null;
  try {
    return await inTransition(app, 'SYSTEM', async (ctx) => {
      const found = callback.txnRef ? await Payment.query(ctx.trx).where({ txn_ref: callback.txnRef, gateway: 'VNPAY' }).first().select('id', 'reservation_id') : undefined;
      const answer = found ? await applyIpn(ctx, found, callback) : ipnResponse.orderNotFound();
      paymentId = found?.id ?? null;
      await auditCallback(ctx.trx, { kind: 'IPN', paymentId, txnRef: callback.txnRef, params, valid: true, outcome: answer.RspCode });
      return answer;
    });
  } catch (err) {
    app.logger.error({ err, txnRef: callback.txnRef }, 'a VNPay IPN could not be processed');
    await auditCallback(knex, { kind: 'IPN', paymentId, txnRef: callback.txnRef, params, valid: true, outcome: '99' }).catch(() => undefined);
    return ipnResponse.unknownError();
  }
}

type VerifiedCallback = ReturnType<ReturnType<typeof vnpayOf>['verifyCallback']>;

async function applyIpn(ctx: TransitionContext, found: Pick<Payment, 'id' | 'reservationId'>, callback: VerifiedCallback): Promise<IpnAnswer> {
  await lockEventOfReservation(ctx.trx, found.reservationId);
  await lockedReservation(ctx.trx, found.reservationId);
  const payment = (await Payment.query(ctx.trx).findById(found.id).forUpdate())!;
  if (callback.amountVnd === null || callback.amountVnd !== payment.amountVnd) return ipnResponse.invalidAmount();
  if (payment.status !== 'PENDING') return ipnResponse.alreadyConfirmed();

  const gatewayFields = {
    gatewayTransactionId: callback.transactionNo?.slice(0, 100) ?? null,
    bankCode: callback.bankCode?.slice(0, 50) ?? null,
    cardType: callback.cardType?.slice(0, 50) ?? null,
    gatewayResponseCode: callback.responseCode?.slice(0, 10) ?? null,
    gatewayPaidAt: parseVnpayDate(callback.payDate) ?? null,
    updatedAt: ctx.now,
  };
  const hookContext = { ...ctx, paymentId: payment.id, reservationId: payment.reservationId, gateway: payment.gateway, amountVnd: payment.amountVnd, refundedVnd: 0 };

  if (!callback.success) {
    await Payment.query(ctx.trx).findById(payment.id).patch({ ...gatewayFields, status: 'FAILED', failedAt: ctx.now });
    await publishPaymentOutcome({ ...hookContext, outcome: 'FAILED' });
    ctx.afterCommit(() =>
      captureBusinessEvent(ctx.app, BUSINESS_EVENTS.paymentFailed, payment.reservationId, { payment_gateway: 'VNPAY', payment_status: 'FAILED', amount_vnd: payment.amountVnd, gateway_response_code: callback.responseCode ?? null }),
    );
    return ipnResponse.success();
  }

  await Payment.query(ctx.trx).findById(payment.id).patch({ ...gatewayFields, status: 'SUCCEEDED', succeededAt: ctx.now });
  await publishPaymentOutcome({ ...hookContext, outcome: 'SUCCEEDED' });
  ctx.afterCommit(() =>
    captureBusinessEvent(ctx.app, BUSINESS_EVENTS.paymentCompleted, payment.reservationId, { payment_gateway: 'VNPAY', payment_status: 'SUCCESS', amount_vnd: payment.amountVnd }),
  );

  // The reservation takes the money, or the money goes back: never lost, never kept for nothing.
  const refundReason = await confirmOrRefundReason(ctx, payment);
  if (refundReason) {
    ctx.app.logger.warn({ paymentId: payment.id, reservationId: payment.reservationId, reason: refundReason }, 'a VNPay payment cannot be used by its reservation; a refund is requested');
    await requestRefund(ctx, payment.id, { amountVnd: payment.amountVnd, reason: refundReason, requestedBy: 'SYSTEM', onSite: 'pending', vnpayJobDelaySeconds: 0 });
  }
  return ipnResponse.success();
}

/** Confirms the reservation by this payment; a reason to refund it when the reservation cannot take it. */
async function confirmOrRefundReason(ctx: TransitionContext, payment: Payment): Promise<string | null> {
  const reservation = await reservationStanding(ctx.trx, payment.reservationId);
  if (reservation.status === 'CANCELLED') return 'reservation_cancelled: the reservation was cancelled before the payment arrived';
  if ((await netPaidBefore(ctx.trx, payment.reservationId, payment.id)) >= reservation.totalVnd) return 'already_paid: the reservation was already paid in full';
  try {
    await confirmReservation(ctx, payment.reservationId, { by: 'PAYMENT' });
    return null;
  } catch (err) {
    if (err instanceof Problem && err.status === 409) return `${err.code}: ${err.detail ?? err.message}`;
    throw err;
  }
}
