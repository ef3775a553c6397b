import type { Knex } from 'knex';
import { NotFound } from '../../platform/http/problem.ts';
import { likeContaining } from '../shows/index.ts';
import { PromoCode, type PromoStatus } from './models.ts';

/**
 * Promo codes (issue 13; DOMAIN.md "Guests and CRM"), Admin+: percent or fixed VND off a booking's subtotal,
 * within a validity window, up to a maximum of live redemptions, optionally only for some shows or offers.
 * Applied at hold time (./adjustment.ts); delete sets INACTIVE and reservations keep the code they used.
 * The reads, and the set-based statements the commands (./commands/) run.
 */

/** Codes compare case-insensitively: stored and looked up trimmed, in upper case. */
export const normalizeCode = (code: string) => code.trim().toUpperCase();

export const NoSuchPromoCode = () => NotFound('No such promo code.');

export async function findPromoCodeOrFail(id: string, trx?: Knex.Transaction, options: { forUpdate?: boolean } = {}): Promise<PromoCode> {
  const query = PromoCode.query(trx).findById(id);
  if (options.forUpdate) query.forUpdate();
  const promo = await query;
  if (!promo) throw NoSuchPromoCode();
  return promo;
}

export async function listPromoCodes(filters: { status?: PromoStatus; q?: string; limit: number; offset: number }): Promise<{ items: PromoCode[]; total: number }> {
  const base = PromoCode.query();
  if (filters.status) base.where('status', filters.status);
  const q = filters.q?.trim();
  if (q) base.where((w) => w.where('code', 'ilike', likeContaining(q)).orWhere('description', 'ilike', likeContaining(q)));
  const [items, total] = await Promise.all([
    base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'asc' }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize(),
  ]);
  return { items, total };
}

/** The code `code` names (normalized by the caller), locked for the hold's transaction. */
export async function lockPromoCodeByCode(trx: Knex.Transaction, code: string): Promise<PromoCode | undefined> {
  return PromoCode.query(trx).findOne({ code }).forUpdate();
}

/** Which of `ids` are offers (the offers module does not export its model: its table read here). */
export async function existingOfferIds(trx: Knex.Transaction, ids: string[]): Promise<string[]> {
  return ids.length ? trx('offers').whereIn('id', ids).pluck('id') : [];
}

/** The promo discount a reservation got (the booking module's table; it exports no model). */
export async function reservationPromoDiscount(trx: Knex.Transaction, reservationId: string): Promise<number> {
  const reservation = await trx('reservations').where({ id: reservationId }).first('promo_discount_vnd');
  return reservation.promo_discount_vnd;
}

/** Counts one redemption unless the code is used up: one conditional update (true when it counted). Commands only. */
export async function incrementRedemptionCount(trx: Knex.Transaction, promoCodeId: string): Promise<boolean> {
  const taken = await trx('promo_codes')
    .where({ id: promoCodeId })
    .andWhere((w) => w.whereNull('max_redemptions').orWhereRaw('redemption_count < max_redemptions'))
    .update({ redemption_count: trx.raw('redemption_count + 1'), updated_at: new Date() });
  return taken > 0;
}

/** Marks the live redemptions of these reservations released; answers the code of each. Commands only. */
export async function markRedemptionsReleased(trx: Knex.Transaction, reservationIds: string[], now: Date): Promise<string[]> {
  const released: Array<{ promo_code_id: string }> = await trx('promo_code_redemptions')
    .whereIn('reservation_id', reservationIds)
    .whereNull('released_at')
    .update({ released_at: now })
    .returning(['promo_code_id']);
  return released.map((row) => row.promo_code_id);
}

/** Takes `n` redemptions off a code's count (never below zero). Commands only. */
export async function decrementRedemptionCount(trx: Knex.Transaction, promoCodeId: string, n: number, now: Date): Promise<void> {
  await trx('promo_codes').where({ id: promoCodeId }).update({ redemption_count: trx.raw('greatest(redemption_count - ?, 0)', [n]), updated_at: now });
}
