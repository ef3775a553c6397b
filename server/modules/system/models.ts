import { RecordModel } from '../../platform/db/model.ts';

/** Table `visit_counters`. */
export class VisitCounter extends RecordModel {
  static override tableName = 'visit_counters';
  static override get idColumn() {
    return ["bucket_type","bucket_key"];
  }
  bucketType!: string;
  bucketKey!: string;
  visitCount!: string;
  createdAt!: Date;
  updatedAt!: Date;
}
