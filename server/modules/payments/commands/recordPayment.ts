import type { AppContext } from '../../../platform/context.ts';
import { Conflict, NotFound, Unprocessable } from '../../../platform/http/problem.ts';
import { BUSINESS_EVENTS, captureBusinessEvent } from '../../booking/index.ts';
import { confirmReservation, lockedReservation, statusAt } from '../../booking/index.ts';
import { actorLabel, inTransition, type TransitionActor } from '../../../domain/unitOfWork.ts';
import { publishPaymentOutcome } from '../hooks.ts';
import { Payment } from '../models.ts';
import { lockEventOfReservation, netPaid } from '../queries.ts';
import { newOnSiteReference } from '../references.ts';

export interface RecordPaymentInput {
  reservationId: string;
  method: 'CASH' | 'CARD_ON_SITE' | 'BANK_TRANSFER';
  amountVnd?: number;
  note?: string;
}

/**
 * Staff record money received for a reservation (cash, card on site, a bank transfer that arrived): a SUCCEEDED
 * payment of at most what is due; a BANK_TRANSFER settles the guest's pending transfer reference when there is
 * one. Once nothing is due, a HELD reservation is confirmed by the payment (a hold that ran out only while its
 * seats are free: 409 `seats_released` otherwise, and nothing is recorded — staff still hold the money). One
 * transaction (event → reservation → payment locks); `payment completed` after the commit.
 */
export async function recordPayment(app: AppContext, actor: TransitionActor, input: RecordPaymentInput): Promise<Payment> {
  return inTransition(app, actor, async (ctx) => {
    if (!(await lockEventOfReservation(ctx.trx, input.reservationId))) throw NotFound('No such reservation.');
    const reservation = await lockedReservation(ctx.trx, input.reservationId);
    const status = statusAt(reservation, ctx.now);
    if (status === 'CANCELLED' || status === 'NO_SHOW') throw Conflict('reservation_not_payable', `A ${status.toLowerCase().replace('_', '-')} reservation cannot take a payment.`);
    const due = reservation.totalVnd - (await netPaid(ctx.trx, reservation.id));
    if (due <= 0) throw Conflict('nothing_to_pay', 'Nothing is due on this reservation.');
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
        ? await Payment.query(ctx.trx).where({ reservation_id: reservation.id, gateway: 'BANK_TRANSFER', status: 'PENDING' }).orderBy('created_at', 'desc').forUpdate().first().select('id')
        : undefined;
    const payment = pendingTransfer
      ? ((await Payment.query(ctx.trx).findById(pendingTransfer.id).patch(recorded).returning('*')) as unknown as Payment)
      : await Payment.query(ctx.trx)
          .insert({ ...recorded, reservationId: reservation.id, gateway: input.method, txnRef: newOnSiteReference(input.method, reservation.reference), createdAt: ctx.now })
          .returning('*');
    await publishPaymentOutcome({ ...ctx, outcome: 'SUCCEEDED', paymentId: payment.id, reservationId: reservation.id, gateway: payment.gateway, amountVnd, refundedVnd: 0 });
    if (amountVnd === due && (status === 'HELD' || status === 'EXPIRED')) await confirmReservation(ctx, reservation.id, { by: 'PAYMENT' });
    ctx.afterCommit(() => captureBusinessEvent(app, BUSINESS_EVENTS.paymentCompleted, reservation.id, { payment_gateway: input.method, payment_status: 'SUCCESS', amount_vnd: amountVnd }));
    return payment;
  });
}
