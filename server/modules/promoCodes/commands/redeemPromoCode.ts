import type { Knex } from 'knex';
import { Conflict } from '../../../platform/http/problem.ts';
import { PromoCodeRedemption } from '../models.ts';
import { incrementRedemptionCount, reservationPromoDiscount } from '../queries.ts';

/**
 * The promo code's writes around a booking (not operations: the hold's price adjustment and the reservation
 * subscribers run them in the booking's transaction). Lock order: show event → promo code (hold); reservation →
 * promo code (cancel, expiry).
 */

export const Exhausted = () => Conflict('promo_code_exhausted', 'This promo code has reached its maximum number of redemptions.');

/** Counts one redemption unless the code is used up (then 409): one conditional update, safe under concurrency. */
export async function takeRedemption(trx: Knex.Transaction, promoCodeId: string): Promise<void> {
  if (!(await incrementRedemptionCount(trx, promoCodeId))) throw Exhausted();
}

/** Once the held reservation exists: the redemption is counted (a second guard) and recorded with its discount. */
export async function redeemPromoCode(trx: Knex.Transaction, promoCodeId: string, reservationId: string, now: Date): Promise<void> {
  await takeRedemption(trx, promoCodeId);
  const discountVnd = await reservationPromoDiscount(trx, reservationId);
  await PromoCodeRedemption.query(trx).insert({ promoCodeId, reservationId, discountVnd, createdAt: now });
}
