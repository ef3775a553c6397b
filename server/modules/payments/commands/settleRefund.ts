import { payableOf } from '../../../domain/payables.ts';
import { NotFound } from '../../../platform/http/problem.ts';
import type { TransitionContext } from '../../../domain/unitOfWork.ts';
import { publish } from '../../../domain/events.ts';
import { publishPaymentOutcome, trackAfterCommit, type PaymentOutcome } from '../hooks.ts';
import { Payment, Refund, type PaymentStatus } from '../models.ts';
import { lockPayment } from './requestRefund.ts';

export interface RefundOutcome {
  status: 'SUCCEEDED' | 'FAILED';
  gatewayRefundId?: string | null;
  responseCode?: string | null;
  response?: unknown;
  failureReason?: string | null;
}

/** A payment's status once `refundedVnd` of it was given back. */
export const statusAfterRefund = (amountVnd: number, refundedVnd: number): PaymentOutcome & PaymentStatus =>
  refundedVnd >= amountVnd ? 'REFUNDED' : 'PARTIALLY_REFUNDED';

/**
 * A pending refund's final outcome, inside the caller's unit of work (the admin routes', the VNPay refund job's):
 * the refund row, the guest's e-mail about it, and on success the payment's refunded sum and status (then the
 * payment hooks and the payable's `onRefunded`). Locks payment, then refund. A refund that is no longer pending is
 * answered unchanged (and e-mails nobody again). `refund processed` (the payable's `track`) after the commit.
 */
export async function settleRefund(ctx: TransitionContext, refundId: string, outcome: RefundOutcome): Promise<Refund> {
  const found = await Refund.query(ctx.trx).findById(refundId).select('payment_id');
  if (!found) throw NotFound('No such refund.');
  const payment = await lockPayment(ctx, found.paymentId);
  const refund = (await Refund.query(ctx.trx).findById(refundId).forUpdate())!;
  if (refund.status !== 'PENDING') return refund;
  const settled = (await Refund.query(ctx.trx)
    .findById(refundId)
    .patch({
      status: outcome.status,
      gatewayRefundId: outcome.gatewayRefundId ?? null,
      gatewayResponseCode: outcome.responseCode ?? null,
      gatewayResponse: outcome.response === undefined ? null : outcome.response,
      failureReason: outcome.failureReason ?? null,
      completedAt: ctx.now,
      processingUntil: null,
      updatedAt: ctx.now,
    })
    .returning('*')) as unknown as Refund;
  // The guest is told either way, in this transaction (refund-completed / refund-failed: the email module's subscriber;
  // payments comes before email and imports nothing of it). A payable that is no reservation's has no such message.
  await publish(ctx, 'refund.settled', { refundId, paymentId: payment.id, status: outcome.status, reservationId: payment.reservationId ?? null });
  const owner = payableOf(ctx.app.payables, payment.payableKind);
  let finalStatus = payment.status;
  if (outcome.status === 'SUCCEEDED') {
    const refundedVnd = payment.refundedVnd + refund.amountVnd;
    finalStatus = statusAfterRefund(payment.amountVnd, refundedVnd);
    await Payment.query(ctx.trx).findById(payment.id).patch({ refundedVnd, status: finalStatus, updatedAt: ctx.now });
    const outcomeOf = { paymentId: payment.id, gateway: payment.gateway, amountVnd: payment.amountVnd, refundedVnd };
    await publishPaymentOutcome({
      ...ctx,
      ...outcomeOf,
      outcome: finalStatus as 'PARTIALLY_REFUNDED' | 'REFUNDED',
      payable: { kind: payment.payableKind, id: payment.payableId },
      reservationId: payment.reservationId,
    });
    await owner.onRefunded?.(ctx, payment.payableId, { ...outcomeOf, refundId, refundVnd: refund.amountVnd });
  }
  trackAfterCommit(ctx, owner, payment.payableId, 'refundProcessed', {
    payment_gateway: payment.gateway,
    refund_status: outcome.status,
    final_payment_status: finalStatus,
    refund_amount_vnd: refund.amountVnd,
  });
  return settled;
}
