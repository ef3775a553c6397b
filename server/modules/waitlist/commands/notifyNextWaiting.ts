import type { AppContext } from '../../../platform/context.ts';
import { inTransition } from '../../../domain/unitOfWork.ts';
import { seatsTakenOf } from '../../booking/index.ts';
import { WaitlistEntry } from '../models.ts';
import { lockEvent } from '../queries.ts';
import { offerSeats } from './offerSeats.ts';

/**
 * The notify job's step: offers the free seats of an event to its waiting entries in joining order, each whose
 * party fits (a larger party further up the list does not block a smaller one). Nothing for an event not on sale.
 * Answers how many were notified.
 */
export async function notifyNextWaiting(app: AppContext, eventId: string, now = new Date()): Promise<number> {
  return inTransition(
    app,
    'SYSTEM',
    async (ctx) => {
      const { trx } = ctx;
      const event = await lockEvent(trx, eventId);
      if (!event || event.status !== 'SCHEDULED' || !event.salesOpen || new Date(event.startsAt) <= now) return 0;
      let free = event.capacity - (await seatsTakenOf(trx, event.id, now));
      if (free <= 0) return 0;
      const waiting = await WaitlistEntry.query(trx)
        .where({ show_event_id: eventId, status: 'WAITING' })
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .forUpdate();
      let notified = 0;
      for (const entry of waiting) {
        if (entry.guestCount > free) continue;
        await offerSeats(ctx, event, entry);
        free -= entry.guestCount;
        notified++;
      }
      return notified;
    },
    now,
  );
}
