import type { Knex } from 'knex';
import { NotFound } from '../../platform/http/problem.ts';
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
