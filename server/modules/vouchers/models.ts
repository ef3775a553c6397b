import { BaseModel, RecordModel } from '../../platform/db/model.ts';

export const VOUCHER_STATUSES = ['ACTIVE', 'REDEEMED', 'EXPIRED'] as const;
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];

/** Table `vouchers`: a stored value in VND with an expiry (./queries.ts, ./commands/). */
export class Voucher extends BaseModel {
  static override tableName = 'vouchers';
  code!: string;
  initialValueVnd!: number;
  remainingValueVnd!: number;
  /** A Date when read; an ISO string may be written. */
  expiresAt!: Date | string;
  status!: VoucherStatus;
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
