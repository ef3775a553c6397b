import type { AppContext } from '../../../platform/context.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { ShowEvent } from '../models.ts';
import { eventClosed } from '../rules.ts';
import { changeShowEvent } from './eventChange.ts';

/** Guests may book: only a scheduled event that has not started (asking again changes nothing). */
export function openShowEventSales(app: AppContext, id: string, actor: StaffActor, now = new Date()) {
  return changeShowEvent(app, id, actor, async (trx, event) => {
    if (event.status !== 'SCHEDULED') throw eventClosed(event);
    if (new Date(event.startsAt) <= now) throw Conflict('event_started', 'The event has started; sales cannot open.');
    if (event.salesOpen) return event;
    return ShowEvent.query(trx).patchAndFetchById(id, { salesOpen: true });
  });
}
