import { randomUUID } from 'node:crypto';
import { VenueTable } from '../../../server/modules/tables/models.ts';

/** The tables module's rows. */

/** A table of the floor plan: MAIN zone, 4 seats. */
export async function buildTable(overrides: Partial<Pick<VenueTable, 'code' | 'zone' | 'seats' | 'sortOrder'>> = {}) {
  return VenueTable.query().insertAndFetch({
    code: overrides.code ?? `T${randomUUID().replace(/-/g, '').slice(0, 6).toUpperCase()}`,
    zone: overrides.zone ?? 'MAIN',
    seats: overrides.seats ?? 4,
    ...(overrides.sortOrder === undefined ? {} : { sortOrder: overrides.sortOrder }),
  });
}
