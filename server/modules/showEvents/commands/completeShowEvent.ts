import type { AppContext } from '../../../platform/context.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { ShowEvent } from '../models.ts';
import { changeShowEvent } from './eventChange.ts';

/** The performance took place: only once it has started, never a cancelled one; sales close. */
export function completeShowEvent(app: AppContext, id: string, actor: StaffActor, now = new Date()) {
  return changeShowEvent(app, id, actor, async (trx, event) => {
    if (event.status === 'COMPLETED') return event;
    if (event.status === 'CANCELLED') throw Conflict('event_cancelled', 'A cancelled event cannot be completed.');
    if (new Date(event.startsAt) > now) throw Conflict('event_not_started', 'The event has not started yet.');
    return ShowEvent.query(trx).patchAndFetchById(id, { status: 'COMPLETED', completedAt: now, salesOpen: false });
  });
}
