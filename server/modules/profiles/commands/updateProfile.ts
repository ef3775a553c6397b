import type { AppContext } from '../../../platform/context.ts';
import { Conflict, Unprocessable } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { VenueTable } from '../../tables/index.ts';
import { GuestProfile } from '../models.ts';
import { findProfileOrFail, type ProfileView } from '../queries.ts';

/** Staff: assign a table (or none); a deleted profile cannot be changed (409), an unknown table is 422. */
export async function updateProfile(app: Pick<AppContext, 'db' | 'logger'>, id: string, tableId: string | null): Promise<ProfileView> {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const current = await findProfileOrFail(id, trx);
    if (current.isDeleted) throw Conflict('profile_deleted', 'The profile was deleted; it cannot be changed.');
    if (tableId && !(await VenueTable.query(trx).findById(tableId).select('id'))) {
      throw Unprocessable('unknown_table', 'No such table.', [{ path: 'body/tableId', message: 'is not a table', code: 'unknown_table' }]);
    }
    await GuestProfile.query(trx).findById(id).patch({ tableId });
    return findProfileOrFail(id, trx);
  });
}
