import type { Knex } from 'knex';
import { Conflict, NotFound } from '../../platform/http/problem.ts';
import { isUniqueViolation } from '../accounts/index.ts';
import { TABLE_ZONES, VenueTable, type TableZone } from './models.ts';

/** Zones in floor order (stage front first), not alphabetical: the order a floor plan reads. */
const ZONE_ORDER = `case zone ${TABLE_ZONES.map((zone, index) => `when '${zone}' then ${index}`).join(' ')} end`;

/** Tables by zone (floor order), then sort order, then code, then id. */
export async function listTables(filters: { zone?: TableZone; limit: number; offset: number }): Promise<{ items: VenueTable[]; total: number }> {
  const base = VenueTable.query();
  if (filters.zone) base.where('zone', filters.zone);
  const [items, total] = await Promise.all([
    base.clone().orderByRaw(`${ZONE_ORDER}, sort_order, code, id`).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize(),
  ]);
  return { items, total };
}

export async function findTableOrFail(id: string, trx?: Knex.Transaction): Promise<VenueTable> {
  const table = await VenueTable.query(trx).findById(id);
  if (!table) throw NotFound('No such table.');
  return table;
}

export const CodeTaken = () => Conflict('code_taken', 'Another table has this code.');

/** A write whose unique-index violation (the code) becomes 409 `code_taken`. */
export async function uniqueCode<T>(write: () => PromiseLike<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw CodeTaken();
    throw err;
  }
}

export async function createTable(input: { code: string; zone: TableZone; seats: number; sortOrder?: number }): Promise<VenueTable> {
  return uniqueCode(() => VenueTable.query().insertAndFetch({ sortOrder: 0, ...input }));
}

export async function updateTable(id: string, patch: Partial<Pick<VenueTable, 'code' | 'zone' | 'seats' | 'sortOrder'>>): Promise<VenueTable> {
  const updated: VenueTable | undefined = await uniqueCode(() => VenueTable.query().patchAndFetchById(id, patch));
  if (!updated) throw NotFound('No such table.');
  return updated;
}

/**
 * Removes the table for good (spec §3). Rows that name it are not touched here: reservations and guest
 * profiles (later issues) reference `venue_tables` with `ON DELETE SET NULL`, so they keep their rows with a
 * null table.
 */
export async function deleteTable(id: string): Promise<void> {
  const deleted = await VenueTable.query().deleteById(id);
  if (!deleted) throw NotFound('No such table.');
}
