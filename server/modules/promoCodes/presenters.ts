import { iso } from '../presenting.ts';
import type { PromoCodeRow } from './service.ts';

/** A promo code as Admin+ see it (allow-list). */
export function presentPromoCode(row: PromoCodeRow) {
  return {
    id: row.id,
    code: row.code,
    description: row.description,
    discountKind: row.discount_kind,
    percentOff: row.percent_off,
    amountOffVnd: row.amount_off_vnd,
    validFrom: iso(row.valid_from),
    validUntil: iso(row.valid_until),
    maxRedemptions: row.max_redemptions,
    redemptionCount: row.redemption_count,
    showIds: row.show_ids,
    offerIds: row.offer_ids,
    status: row.status,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}
