import type { Knex } from 'knex';
import { Conflict, NotFound, Unprocessable } from '../../platform/http/problem.ts';
import { isUniqueViolation } from '../accounts/index.ts';
import { likeContaining } from '../shows/index.ts';

/**
 * Promo codes (issue 13; DOMAIN.md "Guests and CRM"), Admin+: percent or fixed VND off a booking's subtotal,
 * within a validity window, up to a maximum of live redemptions, optionally only for some shows or offers.
 * Applied at hold time (./adjustment.ts); delete sets INACTIVE and reservations keep the code they used.
 */

export const PROMO_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type PromoStatus = (typeof PROMO_STATUSES)[number];
export type DiscountKind = 'PERCENT' | 'FIXED';

export interface PromoCodeRow {
  id: string;
  code: string;
  description: string | null;
  discount_kind: DiscountKind;
  percent_off: number | null;
  amount_off_vnd: number | null;
  valid_from: Date | null;
  valid_until: Date | null;
  max_redemptions: number | null;
  redemption_count: number;
  show_ids: string[];
  offer_ids: string[];
  status: PromoStatus;
  created_at: Date;
  updated_at: Date;
}

export interface PromoCodeInput {
  code?: string;
  description?: string | null;
  discountKind?: DiscountKind;
  percentOff?: number | null;
  amountOffVnd?: number | null;
  validFrom?: string | null;
  validUntil?: string | null;
  maxRedemptions?: number | null;
  showIds?: string[];
  offerIds?: string[];
  status?: PromoStatus;
}

/** Codes compare case-insensitively: stored and looked up trimmed, in upper case. */
export const normalizeCode = (code: string) => code.trim().toUpperCase();

const NoSuchPromoCode = () => NotFound('No such promo code.');

export async function findPromoCodeOrFail(knex: Knex, id: string): Promise<PromoCodeRow> {
  const row = await knex('promo_codes').where({ id }).first();
  if (!row) throw NoSuchPromoCode();
  return row as PromoCodeRow;
}

export async function listPromoCodes(knex: Knex, filters: { status?: PromoStatus; q?: string; limit: number; offset: number }) {
  const base = knex('promo_codes');
  if (filters.status) base.where('status', filters.status);
  const q = filters.q?.trim();
  if (q) base.where((w) => w.where('code', 'ilike', likeContaining(q)).orWhere('description', 'ilike', likeContaining(q)));
  const [items, counted] = await Promise.all([
    base.clone().select('*').orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'asc' }]).limit(filters.limit).offset(filters.offset),
    base.clone().count({ n: '*' }).first(),
  ]);
  return { items: items as PromoCodeRow[], total: Number((counted as { n: string | number } | undefined)?.n ?? 0) };
}

/** The row the input makes of `current` (or of nothing), checked as a whole: kind and amount, window, references. */
async function columnsOf(knex: Knex, input: PromoCodeInput, current?: PromoCodeRow): Promise<Record<string, unknown>> {
  const kind = input.discountKind ?? current?.discount_kind;
  const percentOff = input.percentOff !== undefined ? input.percentOff : input.discountKind && input.discountKind !== current?.discount_kind ? null : (current?.percent_off ?? null);
  const amountOffVnd = input.amountOffVnd !== undefined ? input.amountOffVnd : input.discountKind && input.discountKind !== current?.discount_kind ? null : (current?.amount_off_vnd ?? null);
  if (kind === 'PERCENT' && (percentOff === null || amountOffVnd !== null)) {
    throw Unprocessable('invalid_discount', 'A PERCENT code takes percentOff (1–100) and no amountOffVnd.', [{ path: 'body/percentOff', message: 'is required for PERCENT', code: 'invalid_discount' }]);
  }
  if (kind === 'FIXED' && (amountOffVnd === null || percentOff !== null)) {
    throw Unprocessable('invalid_discount', 'A FIXED code takes amountOffVnd and no percentOff.', [{ path: 'body/amountOffVnd', message: 'is required for FIXED', code: 'invalid_discount' }]);
  }
  const validFrom = input.validFrom !== undefined ? input.validFrom : (current?.valid_from ?? null);
  const validUntil = input.validUntil !== undefined ? input.validUntil : (current?.valid_until ?? null);
  if (validFrom && validUntil && new Date(validFrom) >= new Date(validUntil)) {
    throw Unprocessable('invalid_window', 'validFrom must be before validUntil.', [{ path: 'body/validUntil', message: 'must be after validFrom', code: 'invalid_window' }]);
  }
  const maxRedemptions = input.maxRedemptions !== undefined ? input.maxRedemptions : (current?.max_redemptions ?? null);
  if (maxRedemptions !== null && current && maxRedemptions < current.redemption_count) {
    throw Unprocessable('max_below_redemptions', `The code is already redeemed ${current.redemption_count} times.`, [
      { path: 'body/maxRedemptions', message: `must be at least ${current.redemption_count}`, code: 'max_below_redemptions' },
    ]);
  }
  const columns: Record<string, unknown> = {
    discount_kind: kind,
    percent_off: percentOff,
    amount_off_vnd: amountOffVnd,
    valid_from: validFrom,
    valid_until: validUntil,
    max_redemptions: maxRedemptions,
  };
  if (input.code !== undefined) columns.code = normalizeCode(input.code);
  if (input.description !== undefined) columns.description = input.description;
  if (input.status !== undefined) columns.status = input.status;
  if (input.showIds !== undefined) {
    const ids = [...new Set(input.showIds)];
    const found = ids.length ? await knex('shows').whereIn('id', ids).pluck('id') : [];
    const missing = ids.find((id) => !found.includes(id));
    if (missing) throw Unprocessable('unknown_show', 'No such show.', [{ path: 'body/showIds', message: `${missing} is not a show`, code: 'unknown_show' }]);
    columns.show_ids = JSON.stringify(ids);
  }
  if (input.offerIds !== undefined) {
    const ids = [...new Set(input.offerIds)];
    const found = ids.length ? await knex('offers').whereIn('id', ids).pluck('id') : [];
    const missing = ids.find((id) => !found.includes(id));
    if (missing) throw Unprocessable('unknown_offer', 'No such offer.', [{ path: 'body/offerIds', message: `${missing} is not an offer`, code: 'unknown_offer' }]);
    columns.offer_ids = JSON.stringify(ids);
  }
  return columns;
}

const CodeTaken = () => Conflict('code_taken', 'Another promo code has this code.');

export async function createPromoCode(knex: Knex, input: PromoCodeInput): Promise<PromoCodeRow> {
  const columns = await columnsOf(knex, input);
  try {
    const [row] = await knex('promo_codes').insert(columns).returning('*');
    return row as PromoCodeRow;
  } catch (err) {
    if (isUniqueViolation(err)) throw CodeTaken();
    throw err;
  }
}

/** Changes a code; the row is locked so a concurrent hold counts its redemptions against the final limit. */
export async function updatePromoCode(knex: Knex, id: string, input: PromoCodeInput): Promise<PromoCodeRow> {
  try {
    return await knex.transaction(async (trx) => {
      const current = await trx('promo_codes').where({ id }).forUpdate().first();
      if (!current) throw NoSuchPromoCode();
      const columns = await columnsOf(trx, input, current as PromoCodeRow);
      const [row] = await trx('promo_codes')
        .where({ id })
        .update({ ...columns, updated_at: new Date() })
        .returning('*');
      return row as PromoCodeRow;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw CodeTaken();
    throw err;
  }
}

/** Delete = INACTIVE (idempotent); the reservations that used it keep their code and redemption rows. */
export async function deactivatePromoCode(knex: Knex, id: string): Promise<void> {
  const changed = await knex('promo_codes').where({ id }).update({ status: 'INACTIVE', updated_at: new Date() });
  if (!changed) throw NoSuchPromoCode();
}
