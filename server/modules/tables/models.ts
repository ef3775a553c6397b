import { BaseModel } from '../../platform/db/model.ts';

export const TABLE_ZONES = ['STAGE_FRONT', 'VIP', 'MAIN', 'BALCONY'] as const;
export type TableZone = (typeof TABLE_ZONES)[number];

/** A table on the floor (table `venue_tables`). Hard-deleted; rows that point at it keep theirs with null. */
export class VenueTable extends BaseModel {
  static override tableName = 'venue_tables';
  code!: string;
  zone!: TableZone;
  seats!: number;
  sortOrder!: number;
}
