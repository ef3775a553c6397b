import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { VenueTable } from '../models.ts';
import { uniqueCode } from './uniqueCode.ts';

export type CreateTableInput = operations['createTable']['requestBody']['content']['application/json'];

/** Adds a table; a taken code is the unique index's answer (409 `code_taken`). */
export async function createTable(app: Pick<AppContext, 'db' | 'logger'>, input: CreateTableInput): Promise<VenueTable> {
  return uniqueCode(() => inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => VenueTable.query(trx).insertAndFetch({ sortOrder: 0, ...input })));
}
