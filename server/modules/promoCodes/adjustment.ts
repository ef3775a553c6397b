import { Unprocessable } from '../../platform/http/problem.ts';
import { subscriber } from '../../domain/events.ts';
import type { AdjustmentContext, PriceAdjustment } from '../../domain/bookingExtensions.ts';
import { redeemPromoCode, Exhausted } from './commands/redeemPromoCode.ts';
import { releasePromoRedemptions, retakePromoRedemption } from './commands/releasePromoRedemptions.ts';
import type { PromoCode } from './models.ts';
import { lockPromoCodeByCode, normalizeCode } from './queries.ts';

/**
 * A promo code on a booking (declared in the module's record; server/modules/booking/adjustments.ts): at hold time the code
 * is looked up and locked (`for update`, so concurrent holds with one code queue here and the maximum holds
 * whatever the interleaving), checked (active, in its window, for this show and offer, not used up), and its
 * discount comes off the subtotal. Once the reservation row exists the redemption is counted (a conditional
 * increment, a second guard) and recorded. A booking that ends CANCELLED or EXPIRED gives its redemption back;
 * a late payment that confirms an expired hold takes it again (409 `promo_code_exhausted` when it is used up).
 *
 * Lock order: show event → promo code (hold); reservation → promo code (cancel, expiry). A hold never locks an
 * existing reservation, so the two never wait on each other in a cycle.
 */

const invalid = (detail: string) => Unprocessable('promo_code_invalid', detail, [{ path: 'body/promoCode', message: detail, code: 'promo_code_invalid' }]);

/** The discount of `promo` on `subtotalVnd`: whole VND, rounded down, never more than the subtotal. */
export function promoDiscount(promo: Pick<PromoCode, 'discountKind' | 'percentOff' | 'amountOffVnd'>, subtotalVnd: number): number {
  if (promo.discountKind === 'PERCENT') return Math.floor((subtotalVnd * (promo.percentOff ?? 0)) / 100);
  return Math.min(subtotalVnd, promo.amountOffVnd ?? 0);
}

export async function promoAdjustment(context: AdjustmentContext) {
  const { trx, input, event, offer, subtotalVnd, now } = context;
  if (!input.promoCode) return null;
  const promo = await lockPromoCodeByCode(trx, normalizeCode(input.promoCode));
  if (!promo || promo.status !== 'ACTIVE') throw invalid('No such promo code, or it is no longer active.');
  if ((promo.validFrom && now < new Date(promo.validFrom)) || (promo.validUntil && now >= new Date(promo.validUntil))) {
    throw invalid('This promo code is not valid now.');
  }
  if ((promo.showIds.length && !promo.showIds.includes(event.showId)) || (promo.offerIds.length && !promo.offerIds.includes(offer.id))) {
    throw Unprocessable('promo_code_not_applicable', 'This promo code does not apply to this show or offer.', [
      { path: 'body/promoCode', message: 'does not apply to this show or offer', code: 'promo_code_not_applicable' },
    ]);
  }
  if (promo.maxRedemptions !== null && promo.redemptionCount >= promo.maxRedemptions) throw Exhausted();
  return {
    kind: 'promo' as const,
    discountVnd: promoDiscount(promo, subtotalVnd),
    columns: { promoCode: promo.code },
    afterInsert: (reservationId: string) => redeemPromoCode(trx, promo.id, reservationId, now),
  };
}

export const priceAdjustment: PriceAdjustment = { name: 'promo-code', order: 10, adjust: promoAdjustment };

export const subscribers = [
  subscriber({
    name: 'promoCodes.release-on-cancel',
    event: 'reservation.cancelled',
    phase: 'in-transaction',
    order: 20,
    handle: ({ reservationId }, ctx) => releasePromoRedemptions(ctx.trx, [reservationId], ctx.now),
  }),
  subscriber({
    name: 'promoCodes.release-on-expiry',
    event: 'holds.expired',
    phase: 'in-transaction',
    order: 20,
    handle: ({ reservationIds }, ctx) => releasePromoRedemptions(ctx.trx, reservationIds, ctx.now),
  }),
  subscriber({
    name: 'promoCodes.retake-on-confirm',
    event: 'reservation.confirmed',
    phase: 'in-transaction',
    order: 10,
    handle: ({ reservationId }, ctx) => retakePromoRedemption(ctx.trx, reservationId),
  }),
];
