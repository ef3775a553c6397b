import type { AppContext } from '../../../platform/context.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { inTransition, type TransitionActor } from '../../../domain/unitOfWork.ts';
import { seatsTakenOf } from '../../booking/index.ts';
import { WaitlistEntry } from '../models.ts';
import { lockEvent, NoSuchEntry } from '../queries.ts';
import { offerSeats } from './offerSeats.ts';

/** Staff: offer seats to this entry now (WAITING, or NOTIFIED again with a new link). 409 when its party does not fit. */
export async function notifyWaitlistEntry(app: AppContext, actor: TransitionActor, id: string, now = new Date()): Promise<void> {
  await inTransition(
    app,
    actor,
    async (ctx) => {
      const { trx } = ctx;
      const found = await WaitlistEntry.query(trx).findById(id).select('show_event_id');
      if (!found) throw NoSuchEntry();
      const event = (await lockEvent(trx, found.showEventId))!;
      const entry = (await WaitlistEntry.query(trx).findById(id).forUpdate())!;
      if (entry.status !== 'WAITING' && entry.status !== 'NOTIFIED') throw Conflict('entry_not_waiting', `The entry is ${entry.status.toLowerCase()}.`);
      if (event.status !== 'SCHEDULED') throw Conflict('event_not_bookable', `The event is ${event.status.toLowerCase()}.`);
      const ownHeld = entry.status === 'NOTIFIED' && entry.offerExpiresAt && new Date(entry.offerExpiresAt) > now ? entry.guestCount : 0;
      const left = event.capacity - (await seatsTakenOf(trx, event.id, now)) + ownHeld;
      if (left < entry.guestCount) throw Conflict('not_enough_seats', `Only ${Math.max(0, left)} seats are free; the party has ${entry.guestCount}.`);
      await offerSeats(ctx, event, entry);
    },
    now,
  );
}
