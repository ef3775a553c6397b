import { RecordModel } from '../../platform/db/model.ts';

export type VisitBucketType = 'DAY' | 'WEEK';

/** Table `visit_counters`: one row per local day and per ISO week (server/modules/system/visits.ts). */
export class VisitCounter extends RecordModel {
  static override tableName = 'visit_counters';
  static override get idColumn() {
    return ['bucket_type', 'bucket_key'];
  }
  bucketType!: VisitBucketType;
  bucketKey!: string;
  /** `bigint`: arrives as a string from pg, read as a number. */
  visitCount!: number;
  createdAt!: Date;
  updatedAt!: Date;

  override $parseDatabaseJson(json: Record<string, unknown>) {
    const parsed = super.$parseDatabaseJson(json);
    if (parsed.visitCount !== undefined && parsed.visitCount !== null) parsed.visitCount = Number(parsed.visitCount);
    return parsed;
  }
}
