import { cancelReservation } from '../../booking/index.ts';
import type { TransitionContext } from '../../../domain/unitOfWork.ts';
import type { DomainContext, DomainEvents } from '../../../domain/events.ts';
import { activeReservationIds, paidOf } from '../queries.ts';

/**
 * The reservations' part of a show event's cancellation flow (DOMAIN.md "Catalog"; the `showEvent.cancelled` event,
 * subscribed in ../subscribers.ts): in the flow's transaction, every active reservation of the event — HELD with its
 * hold running, or CONFIRMED — is cancelled through the state machine by SYSTEM (the registered CANCELLED effects
 * run with it: the payments module requests the refunds of what was paid, and the e-mail module writes its guest's
 * `reservation-cancelled` e-mail through the ledger, addressed to the reservation's contact snapshot, with what was
 * paid as read here before the refunds). A re-run finds nothing active left, so it cancels and e-mails nobody
 * again. `reservation cancelled` for each after the commit (booking's subscriber of `reservation.cancelled`).
 */
export async function cancelEventReservations({ event }: DomainEvents['showEvent.cancelled'], { trx, app, afterCommit }: DomainContext, now = new Date()) {
  const active = await activeReservationIds(trx, event.id, now);
  const ctx: TransitionContext = { trx, app, actor: 'SYSTEM', now, afterCommit };
  const reason = event.cancellationReason ?? 'The show event was cancelled.';
  let cancelled = 0;
  let paid = 0;
  for (const id of active) {
    // What the guest paid and has not had back, read before the refund effects run.
    const paidVnd = await paidOf(trx, id);
    // Its guest's `reservation-cancelled` e-mail is the e-mail module's subscriber of `reservation.cancelled` (paidVnd).
    const { changed } = await cancelReservation(ctx, id, { by: 'SYSTEM', reason, cause: 'event_cancelled', paidVnd });
    if (!changed) continue;
    cancelled++;
    if (paidVnd > 0) paid++;
  }
  return { cancelled, paid, emailed: cancelled };
}
