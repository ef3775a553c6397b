import type { AppContext } from '../../../platform/context.ts';
import { Conflict, NotFound, Unprocessable } from '../../../platform/http/problem.ts';
import type { TransitionContext } from '../../../domain/unitOfWork.ts';
import { PAID_STATUSES, Payment, Refund } from '../models.ts';
import { refundable } from '../queries.ts';
import { settleRefund } from './settleRefund.ts';

/**
 * Refunds (issue 9). A refund is requested under a lock on its payment row, so concurrent requests can never give
 * back more than was paid: what is left = paid − refunded − refunds still `PENDING`.
 *
 * - VNPay payments are refunded through VNPay's refund API (signed request). The refund row is written `PENDING`
 *   together with a durable `payments.vnpay-refund` job (outbox: the job exists only if the request commits).
 *   Whoever claims the refund first sends it: the admin route right after its commit (so staff see VNPay's answer
 *   at once, ./createRefund.ts), or the job (for refunds the system requests inside another command: a
 *   cancellation, a payment the reservation could not take). The claim (`processing_until`) keeps two senders from
 *   asking VNPay at once (./sendVnpayRefund.ts). VNPay's signed answer decides `SUCCEEDED` or `FAILED`; no answer,
 *   or one whose signature does not hold, leaves the refund `PENDING` and the job sends it again later.
 * - On-site payments (cash, card on site, bank transfer) are given back by staff: a staff refund is recorded
 *   `SUCCEEDED` at once; a refund the system requests waits `PENDING` until staff complete it (./completeRefund.ts).
 *
 * This file is the write every refund starts with, inside the caller's unit of work (the admin route's, a
 * cancellation's, the IPN's).
 */

export const VNPAY_REFUND_QUEUE = 'payments.vnpay-refund';

/** How long one sender holds a VNPay refund (a little above the API time-out; a crashed sender's claim lapses). */
export const claimSeconds = (app: AppContext) => Math.ceil(app.config.vnpayTimeoutMs / 1000) + 20;

export interface RefundRequest {
  amountVnd: number;
  reason: string | null;
  /** `SYSTEM` for refunds the server requests, else the staff actor's label. */
  requestedBy: string;
  /** On-site payments: `record` = staff handed the money back (SUCCEEDED now); `pending` = to be handed back. */
  onSite: 'record' | 'pending';
  /** VNPay payments: when the job may send it (seconds from now); 0 = at once. */
  vnpayJobDelaySeconds: number;
}

/** Locks the payment row; 404 when there is none. */
export async function lockPayment(ctx: Pick<TransitionContext, 'trx'>, paymentId: string): Promise<Payment> {
  const payment = await Payment.query(ctx.trx).findById(paymentId).forUpdate();
  if (!payment) throw NotFound('No such payment.');
  return payment;
}

/** Writes a refund request of `amountVnd` against the payment (locked here); inside the caller's transaction. */
export async function requestRefund(ctx: TransitionContext, paymentId: string, request: RefundRequest): Promise<Refund> {
  const payment = await lockPayment(ctx, paymentId);
  if (!PAID_STATUSES.includes(payment.status)) throw Conflict('payment_not_refundable', `A ${payment.status.toLowerCase().replace('_', '-')} payment cannot be refunded.`);
  const left = await refundable(ctx.trx, payment);
  if (request.amountVnd > left) {
    throw Unprocessable('refund_exceeds_remaining', `At most ${left} VND of this payment can still be refunded.`, [
      { path: 'body/amountVnd', message: `must be at most ${left}`, code: 'refund_exceeds_remaining' },
    ]);
  }
  const refund = await Refund.query(ctx.trx)
    .insert({ paymentId: payment.id, amountVnd: request.amountVnd, reason: request.reason, status: 'PENDING', requestedBy: request.requestedBy, createdAt: ctx.now, updatedAt: ctx.now })
    .returning('*');
  if (payment.gateway === 'VNPAY') {
    await ctx.app.jobs.enqueue(VNPAY_REFUND_QUEUE, { refundId: refund.id }, { trx: ctx.trx, startAfter: request.vnpayJobDelaySeconds || undefined });
    return refund;
  }
  if (request.onSite === 'record') return settleRefund(ctx, refund.id, { status: 'SUCCEEDED' });
  return refund;
}
