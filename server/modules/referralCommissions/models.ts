import { RecordModel } from '../../platform/db/model.ts';

/** Table `referral_commissions`. */
export class ReferralCommission extends RecordModel {
  static override tableName = 'referral_commissions';
  id!: string;
  partnerId!: string;
  codeId!: string | null;
  linkId!: string | null;
  reservationId!: string;
  paymentId!: string | null;
  baseVnd!: number;
  amountVnd!: number;
  status!: string;
  payoutId!: string | null;
  voidReason!: string | null;
  statusChangedAt!: Date;
  createdAt!: Date;
}

/** Table `referral_payouts`. */
export class ReferralPayout extends RecordModel {
  static override tableName = 'referral_payouts';
  id!: string;
  reference!: string;
  partnerId!: string;
  totalVnd!: number;
  commissionCount!: number;
  note!: string | null;
  createdBy!: string | null;
  createdAt!: Date;
}
