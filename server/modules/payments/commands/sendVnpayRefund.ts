import type { AppContext } from '../../../platform/context.ts';
import { VnpayError } from '../../../platform/integrations/vnpay.ts';
import { raw } from 'objection';
import { inTransition } from '../../../domain/unitOfWork.ts';
import { payableOf } from '../../../domain/payables.ts';
import { Payment, Refund, type RefundStatus } from '../models.ts';
import { vnpayOf } from '../vnpay.ts';
import { claimSeconds } from './requestRefund.ts';
import { settleRefund, type RefundOutcome } from './settleRefund.ts';

export type ProcessResult = { status: RefundStatus; busy?: boolean };

/**
 * Sends a pending VNPay refund once (claimed first, so only one sender at a time) and settles it by VNPay's
 * verified answer (the `payments.vnpay-refund` job's step, and the admin route's right after its commit). No
 * trustworthy answer (time-out, network, HTTP error, bad signature, VNPay switched off): stays PENDING, the claim
 * is released, and the outcome is `PENDING` (the job tries again). No transaction is held while VNPay answers:
 * the claim and its release are single statements, the settlement its own unit of work.
 */
export async function processVnpayRefund(app: AppContext, refundId: string, now = new Date()): Promise<ProcessResult> {
  const knex = app.db.knex;
  const [claimed] = (await Refund.query(knex)
    .where({ id: refundId, status: 'PENDING' })
    .andWhere((q) => q.whereNull('processing_until').orWhere('processing_until', '<', now))
    .patch({ processingUntil: new Date(now.getTime() + claimSeconds(app) * 1000), attempts: raw('attempts + 1'), updatedAt: now })
    .returning('*')) as unknown as Refund[];
  if (!claimed) {
    const row = await Refund.query(knex).findById(refundId).select('status');
    if (!row) return { status: 'FAILED' };
    return row.status === 'PENDING' ? { status: 'PENDING', busy: true } : { status: row.status };
  }
  const payment = (await Payment.query(knex).findById(claimed.paymentId))!;
  // What the refund says at VNPay is the payable's (a reservation's: `Hoan tien VN-…`).
  const payable = await payableOf(app.payables, payment.payableKind).view(knex, payment.payableId);
  let outcome: RefundOutcome;
  try {
    const result = await vnpayOf(app).refund({
      txnRef: payment.txnRef,
      amountVnd: claimed.amountVnd,
      kind: claimed.amountVnd === payment.amountVnd ? 'full' : 'partial',
      transactionNo: payment.gatewayTransactionId ?? undefined,
      transactionDate: new Date(payment.createdAt),
      createdBy: (claimed.requestedBy ?? 'SYSTEM').replace(/\|/g, '').slice(0, 250) || 'SYSTEM',
      ipAddr: '127.0.0.1',
      orderInfo: payable?.refundInfo ?? `Hoan tien ${payment.txnRef}`,
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
      await Refund.query(knex)
        .where({ id: refundId, status: 'PENDING' })
        .patch({ processingUntil: null, failureReason: `Last attempt: ${message}`.slice(0, 500), updatedAt: new Date() });
      return { status: 'PENDING' };
    }
  }
  const settled = await inTransition(app, 'SYSTEM', (ctx) => settleRefund(ctx, refundId, outcome));
  return { status: settled.status };
}
