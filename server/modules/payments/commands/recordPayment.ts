import { payableOf, type PayableRef } from '../../../domain/payables.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict, NotFound, Unprocessable } from '../../../platform/http/problem.ts';
import { actorLabel, inTransition, type TransitionActor } from '../../../domain/unitOfWork.ts';
import { publishPaymentOutcome, trackAfterCommit } from '../hooks.ts';
import { Payment } from '../models.ts';
import { netPaid } from '../queries.ts';
import { newOnSiteReference } from '../references.ts';
import { requestRefund } from './requestRefund.ts';

export interface RecordPaymentInput {
  method: 'CASH' | 'CARD_ON_SITE' | 'BANK_TRANSFER';
  amountVnd?: number;
  note?: string;
}

/**
 * Staff record money received for a payable (cash, card on site, a bank transfer that arrived): a SUCCEEDED
 * payment of at most what is due; a BANK_TRANSFER settles the payer's pending transfer reference when there is
 * one. Then the payable's `onPaid` (`desk`): once nothing is due, a HELD reservation is confirmed by the payment (a
 * hold that ran out only while its seats are free: 409 `seats_released` otherwise, and nothing is recorded — staff
 * still hold the money). One transaction (the payable's locks — a reservation's event → reservation — then the
 * payment); `payment completed` after the commit.
 */
export async function recordPayment(app: AppContext, actor: TransitionActor, ref: PayableRef, input: RecordPaymentInput): Promise<Payment> {
  const owner = payableOf(app.payables, ref.kind);
  return inTransition(app, actor, async (ctx) => {
    const payable = await owner.lock(ctx, ref.id);
    if (!payable) throw NotFound(`No such ${owner.noun}.`);
    const refusal = payable.refusal('desk');
    if (refusal) throw Conflict(refusal.code, refusal.detail);
    const paidBeforeVnd = await netPaid(ctx.trx, ref);
    const due = payable.totalVnd - paidBeforeVnd;
    if (due <= 0) throw Conflict('nothing_to_pay', `Nothing is due on this ${owner.noun}.`);
    const amountVnd = input.amountVnd ?? due;
    if (amountVnd > due) {
      throw Unprocessable('amount_exceeds_balance', `At most ${due} VND is due.`, [{ path: 'body/amountVnd', message: `must be at most ${due}`, code: 'amount_exceeds_balance' }]);
    }
    const recorded = {
      status: 'SUCCEEDED' as const,
      amountVnd,
      recordedBy: actorLabel(actor),
      note: input.note ?? null,
      succeededAt: ctx.now,
      gatewayPaidAt: ctx.now,
      updatedAt: ctx.now,
    };
    const pendingTransfer =
      input.method === 'BANK_TRANSFER'
        ? await Payment.query(ctx.trx).where({ payable_kind: ref.kind, payable_id: ref.id, gateway: 'BANK_TRANSFER', status: 'PENDING' }).orderBy('created_at', 'desc').forUpdate().first().select('id')
        : undefined;
    const payment = pendingTransfer
      ? ((await Payment.query(ctx.trx).findById(pendingTransfer.id).patch(recorded).returning('*')) as unknown as Payment)
      : await Payment.query(ctx.trx)
          .insert({ ...recorded, payableKind: ref.kind, payableId: ref.id, reservationId: payable.reservationId, gateway: input.method, txnRef: newOnSiteReference(input.method, payable.txnRefPrefix), createdAt: ctx.now })
          .returning('*');
    await publishPaymentOutcome({ ...ctx, outcome: 'SUCCEEDED', paymentId: payment.id, payable: ref, reservationId: payable.reservationId, gateway: payment.gateway, amountVnd, refundedVnd: 0 });
    const refundReason = await owner.onPaid(ctx, payable, { paymentId: payment.id, amountVnd, via: 'desk', paidBeforeVnd });
    // A payable that will not take money staff already hold: recorded, and a refund for staff to hand back.
    if (refundReason) await requestRefund(ctx, payment.id, { amountVnd, reason: refundReason, requestedBy: 'SYSTEM', onSite: 'pending', vnpayJobDelaySeconds: 0 });
    trackAfterCommit(ctx, owner, ref.id, 'paymentCompleted', { payment_gateway: input.method, payment_status: 'SUCCESS', amount_vnd: amountVnd });
    return payment;
  });
}
