import type { AppContext } from '../../../platform/context.ts';
import { catalogChanged } from '../../catalog/index.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { WaitlistEntry } from '../models.ts';
import { NoSuchEntry } from '../queries.ts';

/** Archive = EXPIRED (its offer, if any, stops holding seats); a CONVERTED entry is protected (409). Idempotent. */
export async function archiveWaitlistEntry(app: AppContext, id: string, now = new Date()): Promise<void> {
  await inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx }) => {
      const current = await WaitlistEntry.query(trx).findById(id).forUpdate().select('status');
      if (!current) throw NoSuchEntry();
      if (current.status === 'CONVERTED') throw Conflict('entry_converted', 'The entry was converted into a booking; it cannot be archived.');
      if (current.status === 'EXPIRED') return;
      await WaitlistEntry.query(trx).findById(id).patch({ status: 'EXPIRED', expiredAt: now, offerTokenHash: null, updatedAt: now });
      // An open offer's seats are free again.
      if (current.status === 'NOTIFIED') await catalogChanged(app, trx, { entity: 'waitlistEntry', id });
    },
    now,
  );
}
