import type { AppContext } from '../../../platform/context.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { WaitlistEntry } from '../models.ts';
import { NoSuchEntry } from '../queries.ts';

export interface EntryUpdate {
  guestCount?: number;
  name?: string;
  phone?: string | null;
  note?: string | null;
}

/** Contact, party size and note of a WAITING entry (an offered, converted or expired one is 409). */
export async function updateWaitlistEntry(app: AppContext, id: string, input: EntryUpdate): Promise<void> {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const current = await WaitlistEntry.query(trx).findById(id).forUpdate().select('status');
    if (!current) throw NoSuchEntry();
    if (current.status !== 'WAITING') throw Conflict('entry_not_waiting', `The entry is ${current.status.toLowerCase()}; only a waiting entry can be changed.`);
    const changes: Partial<Pick<WaitlistEntry, 'guestCount' | 'name' | 'phone' | 'note'>> = {};
    if (input.guestCount !== undefined) changes.guestCount = input.guestCount;
    if (input.name !== undefined) changes.name = input.name.trim();
    if (input.phone !== undefined) changes.phone = input.phone;
    if (input.note !== undefined) changes.note = input.note;
    await WaitlistEntry.query(trx).findById(id).patch(changes);
  });
}
