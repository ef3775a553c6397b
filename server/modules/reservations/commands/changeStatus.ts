import type { AppContext } from '../../../platform/context.ts';
import { BUSINESS_EVENTS, captureBusinessEvent } from '../../booking/index.ts';
import { cancelReservation, confirmReservation, inTransition, markNoShow, type TransitionActor } from '../../booking/index.ts';

/**
 * Staff moves of one reservation, each through the state machine (server/modules/booking/lifecycle.ts) in its
 * own transaction: an illegal move is its 409 (`illegal_transition`, `reservation_not_cancellable`,
 * `event_not_started`); a move to the status it already has changes nothing.
 */

/** HELD → CONFIRMED by staff: check-in token and confirmation e-mail (lifecycle.ts). */
export async function confirmByStaff(app: AppContext, actor: TransitionActor, id: string, now = new Date()): Promise<void> {
  await inTransition(app, actor, (ctx) => confirmReservation(ctx, id, { by: 'STAFF' }), now);
}

/** HELD/CONFIRMED → CANCELLED by staff (whatever the guest's window), its effects, then `reservation cancelled`. */
export async function cancelByStaff(app: AppContext, actor: TransitionActor, id: string, reason: string | null, now = new Date()): Promise<void> {
  await inTransition(
    app,
    actor,
    async (ctx) => {
      const { changed } = await cancelReservation(ctx, id, { by: 'STAFF', reason });
      if (changed) ctx.afterCommit(() => captureBusinessEvent(app, BUSINESS_EVENTS.reservationCancelled, id, { cancelled_by: 'STAFF' }));
    },
    now,
  );
}

/** CONFIRMED → NO_SHOW once the event has started. */
export async function markNoShowByStaff(app: AppContext, actor: TransitionActor, id: string, now = new Date()): Promise<void> {
  await inTransition(app, actor, (ctx) => markNoShow(ctx, id), now);
}
