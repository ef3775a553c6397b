import { RecordModel } from '../../platform/db/model.ts';

/** Table `check_ins`. */
export class CheckIn extends RecordModel {
  static override tableName = 'check_ins';
  id!: string;
  reservationId!: string | null;
  showEventId!: string | null;
  type!: string;
  identifiedBy!: string;
  nonce!: string;
  requestHash!: Buffer;
  result!: string;
  reason!: string | null;
  operator!: string;
  createdAt!: Date;
}
