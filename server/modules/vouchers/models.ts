import { BaseModel, RecordModel } from '../../platform/db/model.ts';

/** Table `vouchers`. */
export class Voucher extends BaseModel {
  static override tableName = 'vouchers';
  code!: string;
  initialValueVnd!: number;
  remainingValueVnd!: number;
  expiresAt!: Date;
  status!: string;
  recipientName!: string | null;
  recipientEmail!: string | null;
  note!: string | null;
  createdBy!: string | null;
  expiredAt!: Date | null;
}

/** Table `voucher_redemptions`. */
export class VoucherRedemption extends RecordModel {
  static override tableName = 'voucher_redemptions';
  id!: string;
  voucherId!: string;
  reservationId!: string;
  amountVnd!: number;
  createdAt!: Date;
  releasedAt!: Date | null;
}
