import { BaseModel, RecordModel } from '../../platform/db/model.ts';

export const PROMO_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type PromoStatus = (typeof PROMO_STATUSES)[number];
export type DiscountKind = 'PERCENT' | 'FIXED';

/** Table `promo_codes`: percent or fixed VND off a booking's subtotal (./queries.ts, ./commands/). */
export class PromoCode extends BaseModel {
  static override tableName = 'promo_codes';
  static override jsonAttributes = ['showIds', 'offerIds'];
  code!: string;
  description!: string | null;
  discountKind!: DiscountKind;
  percentOff!: number | null;
  amountOffVnd!: number | null;
  /** A Date when read; an ISO string may be written. */
  validFrom!: Date | string | null;
  validUntil!: Date | string | null;
  maxRedemptions!: number | null;
  redemptionCount!: number;
  /** Empty: any show. */
  showIds!: string[];
  /** Empty: any offer. */
  offerIds!: string[];
  status!: PromoStatus;
}

/** Table `promo_code_redemptions`. */
export class PromoCodeRedemption extends RecordModel {
  static override tableName = 'promo_code_redemptions';
  id!: string;
  promoCodeId!: string;
  reservationId!: string;
  discountVnd!: number;
  createdAt!: Date;
  releasedAt!: Date | null;
}
