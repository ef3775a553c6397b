import type { AppContext } from '../../../platform/context.ts';
import { confirmReservation as confirm } from '../../booking/index.ts';
import { inTransition, type TransitionActor } from '../../../domain/unitOfWork.ts';

/**
 * Staff confirm one reservation, HELD → CONFIRMED, through the state machine (the booking module's lifecycle.ts:
 * check-in token, confirmation e-mail) in its own transaction; an illegal move is its 409, an already confirmed
 * one changes nothing.
 */
export async function confirmReservation(app: AppContext, actor: TransitionActor, id: string, now = new Date()): Promise<void> {
  await inTransition(app, actor, (ctx) => confirm(ctx, id, { by: 'STAFF' }), now);
}
