import type { AppContext } from '../../../platform/context.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { cancelReservation } from '../lifecycle.ts';
import { inTransition } from '../../../domain/unitOfWork.ts';
import { cancellationWindowHours, guestReservation, reservationDetails, type ReservationDetails } from '../queries.ts';
import { cancellableUntil } from '../status.ts';

/**
 * The guest cancels with its token: HELD or CONFIRMED, before the cancellation window closes (409
 * `cancellation_window_closed` after). Cancelling a cancelled reservation answers it as it is (idempotent). The
 * shared transition runs the registered effects (refund requests for what was paid). Returns undefined when the
 * token does not open the reservation; `reservation cancelled` after commit.
 */
export async function cancelPublicReservation(app: AppContext, rawReference: string, token: string | undefined, reason: string | undefined, now = new Date()): Promise<ReservationDetails | undefined> {
  const found = await guestReservation(app.db.knex, rawReference, token);
  if (!found) return undefined;
  await inTransition(
    app,
    'GUEST',
    async (ctx) => {
      if (found.status !== 'CANCELLED') {
        if (now >= cancellableUntil(found.eventStartsAt, await cancellationWindowHours(ctx.trx))) {
          throw Conflict('cancellation_window_closed', 'The cancellation window for this event has closed.');
        }
      }
      // `reservation cancelled` (after commit) is the module's subscriber of `reservation.cancelled` (../subscribers.ts).
      await cancelReservation(ctx, found.id, { by: 'GUEST', reason: reason ?? null });
    },
    now,
  );
  return reservationDetails(app.db.knex, found.id);
}
