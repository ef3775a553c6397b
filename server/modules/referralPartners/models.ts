import { BaseModel } from '../../platform/db/model.ts';
import type { Schema } from '../../platform/http/handler.ts';

export type PartnerType = Schema<'PartnerType'>;
export type PartnerStatus = Schema<'PartnerStatus'>;
export type CommissionRule = Schema<'CommissionRule'>;

/** Table `referral_partners`: a partner, its public slug and contact fields, its commercial terms and private notes. */
export class ReferralPartner extends BaseModel {
  static override tableName = 'referral_partners';
  static override jsonAttributes = ['descriptionTranslations'];
  name!: string;
  type!: PartnerType;
  status!: PartnerStatus;
  publicSlug!: string;
  contactEmail!: string | null;
  contactPhone!: string | null;
  websiteUrl!: string | null;
  city!: string | null;
  /** The public description in the site's default locale. */
  description!: string | null;
  /** The public description in the site's other locales (`{"vi": "…"}`; issue 34 §2). */
  descriptionTranslations!: Record<string, string>;
  commissionKind!: CommissionRule['kind'];
  commissionValue!: number;
  payoutDetails!: string | null;
  externalPlaceId!: string | null;
  notes!: string | null;
}
