import type { AppContext } from '../../../platform/context.ts';
import { ShowEvent } from '../models.ts';
import { changeShowEvent } from './eventChange.ts';

/** No new bookings. Whatever the state: a cancelled or completed event's sales are already closed. */
export function closeShowEventSales(app: Pick<AppContext, 'db' | 'logger' | 'notifications'>, id: string) {
  return changeShowEvent(app, id, async (trx, event) => {
    if (!event.salesOpen) return event;
    return ShowEvent.query(trx).patchAndFetchById(id, { salesOpen: false });
  });
}
