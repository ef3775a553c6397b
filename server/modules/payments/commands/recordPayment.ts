import type { AppContext } from '../../../platform/context.ts';
import { Conflict, NotFound, Unprocessable } from '../../../platform/http/problem.ts';
import { BUSINESS_EVENTS, captureBusinessEvent } from '../../booking/index.ts';
import { actorLabel, confirmReservation, inTransition, lockReservation, type TransitionActor } from '../../booking/index.ts';
import { effectiveStatus } from '../../booking/index.ts';
import { publishPaymentOutcome } from '../hooks.ts';
import { netPaid, newOnSiteReference, type PaymentRow } from '../service.ts';

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
export async function recordPayment(app: AppContext, actor: TransitionActor, input: RecordPaymentInput): Promise<PaymentRow> {
  return inTransition(app, actor, async (ctx) => {
    const found = await ctx.trx('reservations').where({ id: input.reservationId }).first('show_event_id');
    if (!found) throw NotFound('No such reservation.');
    await ctx.trx('show_events').where({ id: found.show_event_id }).forUpdate().first('id');
    const reservation = await lockReservation(ctx.trx, input.reservationId);
    const status = effectiveStatus(reservation, ctx.now);
    if (status === 'CANCELLED' || status === 'NO_SHOW') throw Conflict('reservation_not_payable', `A ${status.toLowerCase().replace('_', '-')} reservation cannot take a payment.`);
    const due = reservation.total_vnd - (await netPaid(ctx.trx, reservation.id));
    if (due <= 0) throw Conflict('nothing_to_pay', 'Nothing is due on this reservation.');
    const amountVnd = input.amountVnd ?? due;
    if (amountVnd > due) {
      throw Unprocessable('amount_exceeds_balance', `At most ${due} VND is due.`, [{ path: 'body/amountVnd', message: `must be at most ${due}`, code: 'amount_exceeds_balance' }]);
    }
    const recorded = {
      status: 'SUCCEEDED',
      amount_vnd: amountVnd,
      recorded_by: actorLabel(actor),
      note: input.note ?? null,
      succeeded_at: ctx.now,
      gateway_paid_at: ctx.now,
      updated_at: ctx.now,
    };
    const pendingTransfer =
      input.method === 'BANK_TRANSFER'
        ? ((await ctx.trx('payments').where({ reservation_id: reservation.id, gateway: 'BANK_TRANSFER', status: 'PENDING' }).orderBy('created_at', 'desc').forUpdate().first('id')) as { id: string } | undefined)
        : undefined;
    const [payment] = (
      pendingTransfer
        ? await ctx.trx('payments').where({ id: pendingTransfer.id }).update(recorded).returning('*')
        : await ctx
            .trx('payments')
            .insert({ ...recorded, reservation_id: reservation.id, gateway: input.method, txn_ref: newOnSiteReference(input.method, reservation.reference), created_at: ctx.now })
            .returning('*')
    ) as PaymentRow[];
    await publishPaymentOutcome({ ...ctx, outcome: 'SUCCEEDED', paymentId: payment.id, reservationId: reservation.id, gateway: payment.gateway, amountVnd, refundedVnd: 0 });
    if (amountVnd === due && (status === 'HELD' || status === 'EXPIRED')) await confirmReservation(ctx, reservation.id, { by: 'PAYMENT' });
    ctx.afterCommit(() => captureBusinessEvent(app, BUSINESS_EVENTS.paymentCompleted, reservation.id, { payment_gateway: input.method, payment_status: 'SUCCESS', amount_vnd: amountVnd }));
    return payment;
  });
}
