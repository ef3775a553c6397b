import type { Knex } from 'knex';
import { Conflict, Unprocessable } from '../../platform/http/problem.ts';
import { subscriber } from '../../domain/events.ts';
import type { AdjustmentContext, PriceAdjustment } from '../booking/index.ts';
import { normalizeCode, type PromoCodeRow } from './service.ts';

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
const Exhausted = () => Conflict('promo_code_exhausted', 'This promo code has reached its maximum number of redemptions.');

/** The discount of `promo` on `subtotalVnd`: whole VND, rounded down, never more than the subtotal. */
export function promoDiscount(promo: Pick<PromoCodeRow, 'discount_kind' | 'percent_off' | 'amount_off_vnd'>, subtotalVnd: number): number {
  if (promo.discount_kind === 'PERCENT') return Math.floor((subtotalVnd * (promo.percent_off ?? 0)) / 100);
  return Math.min(subtotalVnd, promo.amount_off_vnd ?? 0);
}

export async function promoAdjustment(context: AdjustmentContext) {
  const { trx, input, event, offer, subtotalVnd, now } = context;
  if (!input.promoCode) return null;
  const code = normalizeCode(input.promoCode);
  const promo = (await trx('promo_codes').where({ code }).forUpdate().first()) as PromoCodeRow | undefined;
  if (!promo || promo.status !== 'ACTIVE') throw invalid('No such promo code, or it is no longer active.');
  if ((promo.valid_from && now < new Date(promo.valid_from)) || (promo.valid_until && now >= new Date(promo.valid_until))) {
    throw invalid('This promo code is not valid now.');
  }
  if ((promo.show_ids.length && !promo.show_ids.includes(event.show_id)) || (promo.offer_ids.length && !promo.offer_ids.includes(offer.id))) {
    throw Unprocessable('promo_code_not_applicable', 'This promo code does not apply to this show or offer.', [
      { path: 'body/promoCode', message: 'does not apply to this show or offer', code: 'promo_code_not_applicable' },
    ]);
  }
  if (promo.max_redemptions !== null && promo.redemption_count >= promo.max_redemptions) throw Exhausted();
  return {
    kind: 'promo' as const,
    discountVnd: promoDiscount(promo, subtotalVnd),
    columns: { promo_code: promo.code },
    afterInsert: async (reservationId: string) => {
      await takeRedemption(trx, promo.id);
      const reservation = await trx('reservations').where({ id: reservationId }).first('promo_discount_vnd');
      await trx('promo_code_redemptions').insert({ promo_code_id: promo.id, reservation_id: reservationId, discount_vnd: reservation.promo_discount_vnd, created_at: now });
    },
  };
}

/** Counts one redemption unless the code is used up (then 409): one conditional update, safe under concurrency. */
async function takeRedemption(trx: Knex.Transaction, promoCodeId: string): Promise<void> {
  const taken = await trx('promo_codes')
    .where({ id: promoCodeId })
    .andWhere((w) => w.whereNull('max_redemptions').orWhereRaw('redemption_count < max_redemptions'))
    .update({ redemption_count: trx.raw('redemption_count + 1'), updated_at: new Date() });
  if (!taken) throw Exhausted();
}

/** Gives back the live redemptions of these reservations (cancelled or expired); idempotent. */
export async function releasePromoRedemptions(trx: Knex.Transaction, reservationIds: string[], now: Date): Promise<void> {
  const released: Array<{ promo_code_id: string }> = await trx('promo_code_redemptions')
    .whereIn('reservation_id', reservationIds)
    .whereNull('released_at')
    .update({ released_at: now })
    .returning(['promo_code_id']);
  const counts = new Map<string, number>();
  for (const { promo_code_id: id } of released) counts.set(id, (counts.get(id) ?? 0) + 1);
  for (const [id, n] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    await trx('promo_codes').where({ id }).update({ redemption_count: trx.raw('greatest(redemption_count - ?, 0)', [n]), updated_at: now });
  }
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
    async handle({ reservationId }, ctx) {
      const redemption = await ctx.trx('promo_code_redemptions').where({ reservation_id: reservationId }).whereNotNull('released_at').first('id', 'promo_code_id');
      if (!redemption) return;
      await takeRedemption(ctx.trx, redemption.promo_code_id);
      await ctx.trx('promo_code_redemptions').where({ id: redemption.id }).update({ released_at: null });
    },
  }),
];
