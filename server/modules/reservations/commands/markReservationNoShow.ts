import type { AppContext } from '../../../platform/context.ts';
import { markNoShow } from '../../booking/index.ts';
import { inTransition, type TransitionActor } from '../../../domain/unitOfWork.ts';

/** Staff mark a guest a no-show, CONFIRMED → NO_SHOW once the event has started (409 `event_not_started` before), in its own transaction. */
export async function markReservationNoShow(app: AppContext, actor: TransitionActor, id: string, now = new Date()): Promise<void> {
  await inTransition(app, actor, (ctx) => markNoShow(ctx, id), now);
}
