import { BaseModel } from '../../platform/db/model.ts';

/** Table `referral_partners`. */
export class ReferralPartner extends BaseModel {
  static override tableName = 'referral_partners';
  name!: string;
  type!: string;
  status!: string;
  publicSlug!: string;
  contactEmail!: string | null;
  contactPhone!: string | null;
  websiteUrl!: string | null;
  city!: string | null;
  description!: string | null;
  commissionKind!: string;
  commissionValue!: number;
  payoutDetails!: string | null;
  externalPlaceId!: string | null;
  notes!: string | null;
}
