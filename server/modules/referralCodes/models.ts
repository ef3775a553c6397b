import { BaseModel } from '../../platform/db/model.ts';
import type { Schema } from '../../platform/http/handler.ts';
import type { CommissionRule } from '../referralPartners/index.ts';

export type CodeStatus = Schema<'CodeStatus'>;

/** Table `referral_codes`: a partner's code (stored upper case); its commission rule, when set, overrides the partner's. */
export class ReferralCode extends BaseModel {
  static override tableName = 'referral_codes';
  code!: string;
  partnerId!: string;
  status!: CodeStatus;
  guestDiscountPercent!: number;
  commissionKind!: CommissionRule['kind'] | null;
  commissionValue!: number | null;
  description!: string | null;
  archivedAt!: Date | null;
}
