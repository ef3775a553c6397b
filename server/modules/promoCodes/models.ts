import { BaseModel, RecordModel } from '../../platform/db/model.ts';

/** Table `promo_codes`. */
export class PromoCode extends BaseModel {
  static override tableName = 'promo_codes';
  static override jsonAttributes = ['showIds', 'offerIds'];
  code!: string;
  description!: string | null;
  discountKind!: string;
  percentOff!: number | null;
  amountOffVnd!: number | null;
  validFrom!: Date | null;
  validUntil!: Date | null;
  maxRedemptions!: number | null;
  redemptionCount!: number;
  showIds!: unknown;
  offerIds!: unknown;
  status!: string;
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
