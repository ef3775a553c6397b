import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { VenueTable } from '../models.ts';
import { uniqueCode } from './uniqueCode.ts';

export type UpdateTableInput = operations['updateTable']['requestBody']['content']['application/json'];

/** Changes a table; a taken code is 409 `code_taken`. */
export async function updateTable(app: Pick<AppContext, 'db' | 'logger'>, id: string, patch: UpdateTableInput): Promise<VenueTable> {
  const updated: VenueTable | undefined = await uniqueCode(() =>
    inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => VenueTable.query(trx).patchAndFetchById(id, patch)),
  );
  if (!updated) throw NotFound('No such table.');
  return updated;
}
