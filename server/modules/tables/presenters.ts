import { iso } from '../presenting.ts';
import type { Schema } from '../../platform/http/handler.ts';
import type { VenueTable } from './models.ts';

export function presentTable(table: VenueTable): Schema<'VenueTable'> {
  return {
    id: table.id,
    code: table.code,
    zone: table.zone,
    seats: table.seats,
    sortOrder: table.sortOrder,
    createdAt: iso(table.createdAt)!,
    updatedAt: iso(table.updatedAt)!,
  };
}
