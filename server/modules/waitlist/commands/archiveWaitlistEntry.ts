import type { AppContext } from '../../../platform/context.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { publish } from '../../../domain/events.ts';
import { inTransition, type TransitionActor } from '../../../domain/unitOfWork.ts';
import { WaitlistEntry } from '../models.ts';
import { NoSuchEntry } from '../queries.ts';

/** Archive = EXPIRED (its offer, if any, stops holding seats); a CONVERTED entry is protected (409). Idempotent. */
export async function archiveWaitlistEntry(app: AppContext, actor: TransitionActor, id: string, now = new Date()): Promise<void> {
  await inTransition(
    app,
    actor,
    async (ctx) => {
      const { trx } = ctx;
      const current = await WaitlistEntry.query(trx).findById(id).forUpdate().select('status');
      if (!current) throw NoSuchEntry();
      if (current.status === 'CONVERTED') throw Conflict('entry_converted', 'The entry was converted into a booking; it cannot be archived.');
      if (current.status === 'EXPIRED') return;
      await WaitlistEntry.query(trx).findById(id).patch({ status: 'EXPIRED', expiredAt: now, offerTokenHash: null, updatedAt: now });
      // An open offer's seats are free again.
      if (current.status === 'NOTIFIED') await publish(ctx, 'waitlist.offerWithdrawn', { entryId: id });
    },
    now,
  );
}
