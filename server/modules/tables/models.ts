import { BaseModel } from '../../platform/db/model.ts';
import type { TableZone } from '../../domain/tableZones.ts';

export { TABLE_ZONES, type TableZone } from '../../domain/tableZones.ts';

/** A table on the floor (table `venue_tables`). Hard-deleted; rows that point at it keep theirs with null. */
export class VenueTable extends BaseModel {
  static override tableName = 'venue_tables';
  code!: string;
  zone!: TableZone;
  seats!: number;
  sortOrder!: number;
}
