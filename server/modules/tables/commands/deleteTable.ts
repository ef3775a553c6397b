import type { AppContext } from '../../../platform/context.ts';
import { NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { VenueTable } from '../models.ts';

/**
 * Removes the table for good (spec §3). Rows that name it are not touched here: reservations and guest
 * profiles reference `venue_tables` with `ON DELETE SET NULL`, so they keep their rows with a null table.
 */
export async function deleteTable(app: Pick<AppContext, 'db' | 'logger'>, id: string): Promise<void> {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const deleted = await VenueTable.query(trx).deleteById(id);
    if (!deleted) throw NotFound('No such table.');
  });
}
