import type { Knex } from 'knex';
import { Unprocessable } from '../../platform/http/problem.ts';

/** 422 `unknown_table` unless the floor plan has this table. */
export async function assertTable(trx: Knex.Transaction, tableId: string, path: string): Promise<void> {
  const table = await trx('venue_tables').where({ id: tableId }).first('id');
  if (!table) throw Unprocessable('unknown_table', 'No such table.', [{ path, message: 'is not a table of the floor plan', code: 'unknown_table' }]);
}
