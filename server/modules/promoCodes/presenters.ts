import { iso } from '../presenting.ts';
import type { Schema } from '../../platform/http/handler.ts';
import type { PromoCode } from './models.ts';

/** A promo code as Admin+ see it (allow-list). */
export function presentPromoCode(promo: PromoCode): Schema<'PromoCode'> {
  return {
    id: promo.id,
    code: promo.code,
    description: promo.description,
    discountKind: promo.discountKind,
    percentOff: promo.percentOff,
    amountOffVnd: promo.amountOffVnd,
    validFrom: iso(promo.validFrom),
    validUntil: iso(promo.validUntil),
    maxRedemptions: promo.maxRedemptions,
    redemptionCount: promo.redemptionCount,
    showIds: promo.showIds,
    offerIds: promo.offerIds,
    status: promo.status,
    createdAt: iso(promo.createdAt)!,
    updatedAt: iso(promo.updatedAt)!,
  };
}
