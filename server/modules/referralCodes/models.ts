import { BaseModel } from '../../platform/db/model.ts';

/** Table `referral_codes`. */
export class ReferralCode extends BaseModel {
  static override tableName = 'referral_codes';
  code!: string;
  partnerId!: string;
  status!: string;
  guestDiscountPercent!: number;
  commissionKind!: string | null;
  commissionValue!: number | null;
  description!: string | null;
  archivedAt!: Date | null;
}
