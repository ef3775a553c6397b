import { RecordModel } from '../../platform/db/model.ts';

/**
 * Commission statuses (issue 12): `PENDING` ⇄ `APPROVED` → `PAID` (payout batches only); `VOID` when the booking
 * is cancelled or fully refunded before payout, or by an admin. `PAID` and `VOID` are final.
 */
export const COMMISSION_STATUSES = ['PENDING', 'APPROVED', 'PAID', 'VOID'] as const;
export type CommissionStatus = (typeof COMMISSION_STATUSES)[number];

/** Table `referral_commissions`: one per attributed reservation (a unique index), on the booking's net amount. */
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
  status!: CommissionStatus;
  payoutId!: string | null;
  voidReason!: string | null;
  statusChangedAt!: Date;
  createdAt!: Date;
}

/** Table `referral_payouts`: a batch of one partner's commissions, paid together. */
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
