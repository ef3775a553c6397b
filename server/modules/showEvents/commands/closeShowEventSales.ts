import type { AppContext } from '../../../platform/context.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { ShowEvent } from '../models.ts';
import { changeShowEvent } from './eventChange.ts';

/** No new bookings. Whatever the state: a cancelled or completed event's sales are already closed. */
export function closeShowEventSales(app: AppContext, id: string, actor: StaffActor) {
  return changeShowEvent(app, id, actor, async (trx, event) => {
    if (!event.salesOpen) return event;
    return ShowEvent.query(trx).patchAndFetchById(id, { salesOpen: false });
  });
}
