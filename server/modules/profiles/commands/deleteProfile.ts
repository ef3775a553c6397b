import type { AppContext } from '../../../platform/context.ts';
import { NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { GuestProfile } from '../models.ts';

/** Soft delete (idempotent): `isDeleted`, its token stops working, its reactions leave the staff lists. */
export async function deleteProfile(app: Pick<AppContext, 'db' | 'logger'>, id: string, now = new Date()): Promise<void> {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const current = await GuestProfile.query(trx).findById(id).select('id', 'is_deleted');
    if (!current) throw NotFound('No such profile.');
    if (current.isDeleted) return;
    await current.$query(trx).patch({ isDeleted: true, deletedAt: now });
  });
}
