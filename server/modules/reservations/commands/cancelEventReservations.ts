import type { Knex } from 'knex';
import { BUSINESS_EVENTS, captureBusinessEvent } from '../booking/index.ts';
import { cancelReservation, type TransitionContext } from '../booking/index.ts';
import { queueEventCancellationEmail } from '../email/index.ts';
import { subscriber, type DomainContext, type DomainEvents } from '../../domain/events.ts';

/**
 * The reservations' part of a show event's cancellation flow (DOMAIN.md "Catalog"; the `showEvent.cancelled` event): in the
 * flow's transaction, every active reservation of the event — HELD with its hold running, or CONFIRMED — is
 * cancelled through the state machine by SYSTEM (the registered CANCELLED effects run with it: the payments
 * module requests the refunds of what was paid), and its guest gets the `reservation-cancelled` e-mail through
 * the ledger, addressed to the reservation's contact snapshot (server/modules/email/guestMessages.ts). A re-run
 * finds nothing active left, so it cancels and e-mails nobody again. `reservation cancelled` for each after the
 * commit. Declared in the module's record (./index.ts).
 */

/** What the guest paid and has not had back (whole VND), read before the refund effects run. */
async function paidOf(trx: Knex.Transaction, reservationId: string): Promise<number> {
  const row = await trx('payments')
    .where('reservation_id', reservationId)
    .whereIn('status', ['SUCCEEDED', 'PARTIALLY_REFUNDED'])
    .first(trx.raw('coalesce(sum(amount_vnd - refunded_vnd), 0) as paid'));
  return Number(row?.paid ?? 0);
}

export async function cancelEventReservations({ event }: DomainEvents['showEvent.cancelled'], { trx, app, afterCommit }: DomainContext, now = new Date()) {
  const active = await trx('reservations')
    .where('show_event_id', event.id)
    .andWhere((w) => w.where('status', 'CONFIRMED').orWhere((held) => held.where('status', 'HELD').andWhere('hold_expires_at', '>', now)))
    .orderBy('id')
    .select('id');
  const ctx: TransitionContext = { trx, app, actor: 'SYSTEM', now, afterCommit };
  const reason = event.cancellationReason ?? 'The show event was cancelled.';
  let cancelled = 0;
  let paid = 0;
  for (const { id } of active as Array<{ id: string }>) {
    const paidVnd = await paidOf(trx, id);
    const { changed } = await cancelReservation(ctx, id, { by: 'SYSTEM', reason });
    if (!changed) continue;
    cancelled++;
    if (paidVnd > 0) paid++;
    await queueEventCancellationEmail(trx, app, id, paidVnd);
    afterCommit(() => captureBusinessEvent(app, BUSINESS_EVENTS.reservationCancelled, id, { cancelled_by: 'SYSTEM', cancellation_cause: 'event_cancelled' }));
  }
  return { cancelled, paid, emailed: cancelled };
}

/** Named as the cancellation flow's reply reports it (`hooks[].name`). */
export const eventCancelled = subscriber({
  name: 'reservations',
  event: 'showEvent.cancelled',
  phase: 'in-transaction',
  order: 10,
  handle: (payload, ctx) => cancelEventReservations(payload, ctx),
});
