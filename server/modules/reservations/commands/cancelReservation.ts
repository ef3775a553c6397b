import type { AppContext } from '../../../platform/context.ts';
import { cancelReservation as cancel } from '../../booking/index.ts';
import { inTransition, type TransitionActor } from '../../../domain/unitOfWork.ts';

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
      await cancel(ctx, id, { by: 'STAFF', reason });
    },
    now,
  );
}
