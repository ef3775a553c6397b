import type { AppContext } from '../../../platform/context.ts';
import { Conflict, NotFound, Unprocessable } from '../../../platform/http/problem.ts';
import { VnpayError } from '../../../platform/integrations/vnpay.ts';
import { BUSINESS_EVENTS, captureBusinessEvent } from '../../booking/index.ts';
import { actorLabel, inTransition, type TransitionContext } from '../../booking/index.ts';
import { queueRefundOutcomeEmail } from '../../email/index.ts';
import { publishPaymentOutcome } from '../hooks.ts';
import { ON_SITE_GATEWAYS, PAID_STATUSES, refundable, statusAfterRefund, vnpayOf, type PaymentRow, type RefundRow } from '../service.ts';

/**
 * Refunds (issue 9). A refund is requested under a lock on its payment row, so concurrent requests can never give
 * back more than was paid: what is left = paid − refunded − refunds still `PENDING`.
 *
 * - VNPay payments are refunded through VNPay's refund API (signed request). The refund row is written `PENDING`
 *   together with a durable `payments.vnpay-refund` job (outbox: the job exists only if the request commits).
 *   Whoever claims the refund first sends it: the admin route right after its commit (so staff see VNPay's answer
 *   at once), or the job (for refunds the system requests inside another command: a cancellation, a payment the
 *   reservation could not take). The claim (`processing_until`) keeps two senders from asking VNPay at once.
 *   VNPay's signed answer decides `SUCCEEDED` or `FAILED`; no answer, or one whose signature does not hold, leaves
 *   the refund `PENDING` and the job sends it again later.
 * - On-site payments (cash, card on site, bank transfer) are given back by staff: a staff refund is recorded
 *   `SUCCEEDED` at once; a refund the system requests waits `PENDING` until staff complete it.
 */

export const VNPAY_REFUND_QUEUE = 'payments.vnpay-refund';

/** How long one sender holds a VNPay refund (a little above the API time-out; a crashed sender's claim lapses). */
const claimSeconds = (app: AppContext) => Math.ceil(app.config.vnpayTimeoutMs / 1000) + 20;

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
async function lockPayment(ctx: Pick<TransitionContext, 'trx'>, paymentId: string): Promise<PaymentRow> {
  const payment = (await ctx.trx('payments').where({ id: paymentId }).forUpdate().first()) as PaymentRow | undefined;
  if (!payment) throw NotFound('No such payment.');
  return payment;
}

/** Writes a refund request of `amountVnd` against the payment (locked here); inside the caller's transaction. */
export async function requestRefund(ctx: TransitionContext, paymentId: string, request: RefundRequest): Promise<RefundRow> {
  const payment = await lockPayment(ctx, paymentId);
  if (!PAID_STATUSES.includes(payment.status)) throw Conflict('payment_not_refundable', `A ${payment.status.toLowerCase().replace('_', '-')} payment cannot be refunded.`);
  const left = await refundable(ctx.trx, payment);
  if (request.amountVnd > left) {
    throw Unprocessable('refund_exceeds_remaining', `At most ${left} VND of this payment can still be refunded.`, [
      { path: 'body/amountVnd', message: `must be at most ${left}`, code: 'refund_exceeds_remaining' },
    ]);
  }
  const [refund] = (await ctx
    .trx('refunds')
    .insert({ payment_id: payment.id, amount_vnd: request.amountVnd, reason: request.reason, status: 'PENDING', requested_by: request.requestedBy, created_at: ctx.now, updated_at: ctx.now })
    .returning('*')) as RefundRow[];
  if (payment.gateway === 'VNPAY') {
    await ctx.app.jobs.enqueue(VNPAY_REFUND_QUEUE, { refundId: refund.id }, { trx: ctx.trx, startAfter: request.vnpayJobDelaySeconds || undefined });
    return refund;
  }
  if (request.onSite === 'record') return settleRefund(ctx, refund.id, { status: 'SUCCEEDED' });
  return refund;
}

export interface RefundOutcome {
  status: 'SUCCEEDED' | 'FAILED';
  gatewayRefundId?: string | null;
  responseCode?: string | null;
  response?: unknown;
  failureReason?: string | null;
}

/**
 * A pending refund's final outcome: the refund row, the guest's e-mail about it, and on success the payment's
 * refunded sum and status (then the payment hooks). Locks payment, then refund. A refund that is no longer
 * pending is answered unchanged (and e-mails nobody again). `refund processed` after the commit.
 */
export async function settleRefund(ctx: TransitionContext, refundId: string, outcome: RefundOutcome): Promise<RefundRow> {
  const found = (await ctx.trx('refunds').where({ id: refundId }).first('payment_id')) as { payment_id: string } | undefined;
  if (!found) throw NotFound('No such refund.');
  const payment = await lockPayment(ctx, found.payment_id);
  const refund = (await ctx.trx('refunds').where({ id: refundId }).forUpdate().first()) as RefundRow;
  if (refund.status !== 'PENDING') return refund;
  const [settled] = (await ctx
    .trx('refunds')
    .where({ id: refundId })
    .update({
      status: outcome.status,
      gateway_refund_id: outcome.gatewayRefundId ?? null,
      gateway_response_code: outcome.responseCode ?? null,
      gateway_response: outcome.response === undefined ? null : JSON.stringify(outcome.response),
      failure_reason: outcome.failureReason ?? null,
      completed_at: ctx.now,
      processing_until: null,
      updated_at: ctx.now,
    })
    .returning('*')) as RefundRow[];
  // The guest is told either way, in this transaction (refund-completed / refund-failed, guestMessages.ts).
  await queueRefundOutcomeEmail(ctx, refundId);
  let finalStatus = payment.status;
  if (outcome.status === 'SUCCEEDED') {
    const refundedVnd = payment.refunded_vnd + refund.amount_vnd;
    finalStatus = statusAfterRefund(payment.amount_vnd, refundedVnd);
    await ctx.trx('payments').where({ id: payment.id }).update({ refunded_vnd: refundedVnd, status: finalStatus, updated_at: ctx.now });
    await publishPaymentOutcome({
      ...ctx,
      outcome: finalStatus as 'PARTIALLY_REFUNDED' | 'REFUNDED',
      paymentId: payment.id,
      reservationId: payment.reservation_id,
      gateway: payment.gateway,
      amountVnd: payment.amount_vnd,
      refundedVnd,
    });
  }
  ctx.afterCommit(() =>
    captureBusinessEvent(ctx.app, BUSINESS_EVENTS.refundProcessed, payment.reservation_id, {
      payment_gateway: payment.gateway,
      refund_status: outcome.status,
      final_payment_status: finalStatus,
      refund_amount_vnd: refund.amount_vnd,
    }),
  );
  return settled;
}

/** The admin route: requests the refund and, for VNPay, sends it at once (the job is the fallback). */
export async function createRefund(app: AppContext, actor: TransitionContext['actor'], paymentId: string, input: { amountVnd: number; reason: string }): Promise<RefundRow> {
  const refund = await inTransition(app, actor, (ctx) =>
    requestRefund(ctx, paymentId, { amountVnd: input.amountVnd, reason: input.reason, requestedBy: actorLabel(actor), onSite: 'record', vnpayJobDelaySeconds: claimSeconds(app) }),
  );
  if (refund.status !== 'PENDING') return refund;
  await processVnpayRefund(app, refund.id);
  return (await app.db.knex('refunds').where({ id: refund.id }).first()) as RefundRow;
}

/** Staff gave back the money of a pending on-site refund (idempotent). */
export async function completeRefund(app: AppContext, actor: TransitionContext['actor'], refundId: string): Promise<RefundRow> {
  return inTransition(app, actor, async (ctx) => {
    const row = (await ctx.trx('refunds as f').join('payments as p', 'p.id', 'f.payment_id').where('f.id', refundId).first('f.status', 'p.gateway')) as
      | { status: string; gateway: PaymentRow['gateway'] }
      | undefined;
    if (!row) throw NotFound('No such refund.');
    if (!ON_SITE_GATEWAYS.includes(row.gateway)) throw Conflict('refund_via_gateway', 'A VNPay refund is sent to VNPay by the server; it cannot be completed by hand.');
    if (row.status === 'FAILED') throw Conflict('refund_not_pending', 'This refund failed; request a new one.');
    return settleRefund(ctx, refundId, { status: 'SUCCEEDED' });
  });
}

export type ProcessResult = { status: RefundRow['status']; busy?: boolean };

/**
 * Sends a pending VNPay refund once (claimed first, so only one sender at a time) and settles it by VNPay's
 * verified answer. No trustworthy answer (time-out, network, HTTP error, bad signature, VNPay switched off):
 * stays PENDING, the claim is released, and the outcome is `PENDING` (the job tries again).
 */
export async function processVnpayRefund(app: AppContext, refundId: string, now = new Date()): Promise<ProcessResult> {
  const knex = app.db.knex;
  const [claimed] = (await knex('refunds')
    .where({ id: refundId, status: 'PENDING' })
    .andWhere((q) => q.whereNull('processing_until').orWhere('processing_until', '<', now))
    .update({ processing_until: new Date(now.getTime() + claimSeconds(app) * 1000), attempts: knex.raw('attempts + 1'), updated_at: now })
    .returning('*')) as RefundRow[];
  if (!claimed) {
    const row = (await knex('refunds').where({ id: refundId }).first('status')) as { status: RefundRow['status'] } | undefined;
    if (!row) return { status: 'FAILED' };
    return row.status === 'PENDING' ? { status: 'PENDING', busy: true } : { status: row.status };
  }
  const payment = (await knex('payments as p').join('reservations as r', 'r.id', 'p.reservation_id').where('p.id', claimed.payment_id).first('p.*', 'r.reference')) as PaymentRow & { reference: string };
  let outcome: RefundOutcome;
  try {
    const result = await vnpayOf(app).refund({
      txnRef: payment.txn_ref,
      amountVnd: claimed.amount_vnd,
      kind: claimed.amount_vnd === payment.amount_vnd ? 'full' : 'partial',
      transactionNo: payment.gateway_transaction_id ?? undefined,
      transactionDate: new Date(payment.created_at),
      createdBy: (claimed.requested_by ?? 'SYSTEM').replace(/\|/g, '').slice(0, 250) || 'SYSTEM',
      ipAddr: '127.0.0.1',
      orderInfo: `Hoan tien ${payment.reference}`,
    });
    outcome = result.ok
      ? { status: 'SUCCEEDED', gatewayRefundId: result.transactionNo || null, responseCode: result.responseCode, response: result.raw }
      : { status: 'FAILED', responseCode: result.responseCode, response: result.raw, failureReason: `VNPay declined the refund (${result.responseCode}): ${result.message}`.slice(0, 500) };
  } catch (err) {
    if (err instanceof VnpayError && err.code === 'invalid_input') {
      outcome = { status: 'FAILED', failureReason: `The refund could not be sent: ${err.message}` };
    } else {
      const message = err instanceof Error ? err.message : String(err);
      app.logger.warn({ err, refundId }, 'a VNPay refund got no trustworthy answer; it stays pending and is retried');
      await knex('refunds').where({ id: refundId, status: 'PENDING' }).update({ processing_until: null, failure_reason: `Last attempt: ${message}`.slice(0, 500), updated_at: new Date() });
      return { status: 'PENDING' };
    }
  }
  const settled = await inTransition(app, 'SYSTEM', (ctx) => settleRefund(ctx, refundId, outcome));
  return { status: settled.status };
}
