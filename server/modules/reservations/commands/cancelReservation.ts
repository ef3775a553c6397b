import type { AppContext } from '../../../platform/context.ts';
import { BUSINESS_EVENTS, cancelReservation as cancel, captureBusinessEvent, inTransition, type TransitionActor } from '../../booking/index.ts';

/**
 * Staff cancel one reservation, HELD/CONFIRMED → CANCELLED whatever the guest's window, through the state machine
 * in its own transaction (its effects: refund requests, the guest's e-mail), then `reservation cancelled`. A
 * cancelled one changes nothing; an illegal move is 409 `reservation_not_cancellable`.
 */
export async function cancelReservation(app: AppContext, actor: TransitionActor, id: string, reason: string | null, now = new Date()): Promise<void> {
  await inTransition(
    app,
    actor,
    async (ctx) => {
      const { changed } = await cancel(ctx, id, { by: 'STAFF', reason });
      if (changed) ctx.afterCommit(() => captureBusinessEvent(app, BUSINESS_EVENTS.reservationCancelled, id, { cancelled_by: 'STAFF' }));
    },
    now,
  );
}
