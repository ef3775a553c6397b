import type { AppContext } from '../../../platform/context.ts';
import { payableOf } from '../../../domain/payables.ts';
import { ipnResponse, parseVnpayDate, type CallbackQuery, type IpnAnswer } from '../../../platform/integrations/vnpay.ts';
import { inTransition, type TransitionContext } from '../../../domain/unitOfWork.ts';
import { publishPaymentOutcome, trackAfterCommit } from '../hooks.ts';
import { Payment } from '../models.ts';
import { netPaidBefore } from '../queries.ts';
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
 * anything else. It settles the payment's payable (server/domain/payables.ts; a reservation, a gift-voucher order…)
 * through its module's implementation, and names none. Success: payment SUCCEEDED (+ hooks), then the payable's
 * `onPaid` (a reservation is confirmed by the payment); when it cannot take the money (a reservation cancelled,
 * its seats released, already paid in full) the money stays recorded and a refund of it is requested (the VNPay
 * refund job sends it). Failure code: payment FAILED (+ hooks, `onPaymentFailed`). Locks: the payable's own (a
 * reservation's: event → reservation), then the payment. Business events after the commit.
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
      const found = callback.txnRef ? await Payment.query(ctx.trx).where({ txn_ref: callback.txnRef, gateway: 'VNPAY' }).first().select('id', 'payable_kind', 'payable_id') : undefined;
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

async function applyIpn(ctx: TransitionContext, found: Pick<Payment, 'id' | 'payableKind' | 'payableId'>, callback: VerifiedCallback): Promise<IpnAnswer> {
  const owner = payableOf(ctx.app.payables, found.payableKind);
  const ref = { kind: found.payableKind, id: found.payableId };
  // The payable's own locks first (a reservation: its show event, then itself), then the payment row.
  const payable = await owner.lock(ctx, found.payableId);
  if (!payable) throw new Error(`payment ${found.id}: its ${found.payableKind} ${found.payableId} is gone`);
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
  const outcome = { paymentId: payment.id, gateway: payment.gateway, amountVnd: payment.amountVnd, refundedVnd: 0 };
  const hookContext = { ...ctx, ...outcome, payable: ref, reservationId: payment.reservationId };

  if (!callback.success) {
    await Payment.query(ctx.trx).findById(payment.id).patch({ ...gatewayFields, status: 'FAILED', failedAt: ctx.now });
    await publishPaymentOutcome({ ...hookContext, outcome: 'FAILED' });
    await owner.onPaymentFailed?.(ctx, ref.id, outcome);
    trackAfterCommit(ctx, owner, ref.id, 'paymentFailed', { payment_gateway: 'VNPAY', payment_status: 'FAILED', amount_vnd: payment.amountVnd, gateway_response_code: callback.responseCode ?? null });
    return ipnResponse.success();
  }

  await Payment.query(ctx.trx).findById(payment.id).patch({ ...gatewayFields, status: 'SUCCEEDED', succeededAt: ctx.now });
  await publishPaymentOutcome({ ...hookContext, outcome: 'SUCCEEDED' });
  trackAfterCommit(ctx, owner, ref.id, 'paymentCompleted', { payment_gateway: 'VNPAY', payment_status: 'SUCCESS', amount_vnd: payment.amountVnd });

  // The payable takes the money, or the money goes back: never lost, never kept for nothing.
  const paidBeforeVnd = await netPaidBefore(ctx.trx, ref, payment.id);
  const refundReason = await owner.onPaid(ctx, payable, { paymentId: payment.id, amountVnd: payment.amountVnd, via: 'gateway', paidBeforeVnd });
  if (refundReason) {
    ctx.app.logger.warn({ paymentId: payment.id, payableKind: ref.kind, payableId: ref.id, reason: refundReason }, `a VNPay payment cannot be used by its ${owner.noun}; a refund is requested`);
    await requestRefund(ctx, payment.id, { amountVnd: payment.amountVnd, reason: refundReason, requestedBy: 'SYSTEM', onSite: 'pending', vnpayJobDelaySeconds: 0 });
  }
  return ipnResponse.success();
}
