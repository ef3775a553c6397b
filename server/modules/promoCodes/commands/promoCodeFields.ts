import type { Knex } from 'knex';
import { Unprocessable } from '../../../platform/http/problem.ts';
import { Show } from '../../shows/index.ts';
import type { DiscountKind, PromoCode, PromoStatus } from '../models.ts';
import { existingOfferIds, normalizeCode } from '../queries.ts';

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

/** The fields the input makes of `current` (or of nothing), checked as a whole: kind and amount, window, references. */
export async function promoCodeFields(trx: Knex.Transaction, input: PromoCodeInput, current?: PromoCode): Promise<Partial<PromoCode>> {
  const kind = input.discountKind ?? current?.discountKind;
  const percentOff = input.percentOff !== undefined ? input.percentOff : input.discountKind && input.discountKind !== current?.discountKind ? null : (current?.percentOff ?? null);
  const amountOffVnd = input.amountOffVnd !== undefined ? input.amountOffVnd : input.discountKind && input.discountKind !== current?.discountKind ? null : (current?.amountOffVnd ?? null);
  if (kind === 'PERCENT' && (percentOff === null || amountOffVnd !== null)) {
    throw Unprocessable('invalid_discount', 'A PERCENT code takes percentOff (1–100) and no amountOffVnd.', [{ path: 'body/percentOff', message: 'is required for PERCENT', code: 'invalid_discount' }]);
  }
  if (kind === 'FIXED' && (amountOffVnd === null || percentOff !== null)) {
    throw Unprocessable('invalid_discount', 'A FIXED code takes amountOffVnd and no percentOff.', [{ path: 'body/amountOffVnd', message: 'is required for FIXED', code: 'invalid_discount' }]);
  }
  const validFrom = input.validFrom !== undefined ? input.validFrom : (current?.validFrom ?? null);
  const validUntil = input.validUntil !== undefined ? input.validUntil : (current?.validUntil ?? null);
  if (validFrom && validUntil && new Date(validFrom) >= new Date(validUntil)) {
    throw Unprocessable('invalid_window', 'validFrom must be before validUntil.', [{ path: 'body/validUntil', message: 'must be after validFrom', code: 'invalid_window' }]);
  }
  const maxRedemptions = input.maxRedemptions !== undefined ? input.maxRedemptions : (current?.maxRedemptions ?? null);
  if (maxRedemptions !== null && current && maxRedemptions < current.redemptionCount) {
    throw Unprocessable('max_below_redemptions', `The code is already redeemed ${current.redemptionCount} times.`, [
      { path: 'body/maxRedemptions', message: `must be at least ${current.redemptionCount}`, code: 'max_below_redemptions' },
    ]);
  }
  const fields: Partial<PromoCode> = { discountKind: kind, percentOff, amountOffVnd, validFrom, validUntil, maxRedemptions };
  if (input.code !== undefined) fields.code = normalizeCode(input.code);
  if (input.description !== undefined) fields.description = input.description;
  if (input.status !== undefined) fields.status = input.status;
  if (input.showIds !== undefined) {
    const ids = [...new Set(input.showIds)];
    const found = ids.length ? (await Show.query(trx).whereIn('id', ids).select('id')).map((show) => show.id) : [];
    const missing = ids.find((id) => !found.includes(id));
    if (missing) throw Unprocessable('unknown_show', 'No such show.', [{ path: 'body/showIds', message: `${missing} is not a show`, code: 'unknown_show' }]);
    fields.showIds = ids;
  }
  if (input.offerIds !== undefined) {
    const ids = [...new Set(input.offerIds)];
    const found = await existingOfferIds(trx, ids);
    const missing = ids.find((id) => !found.includes(id));
    if (missing) throw Unprocessable('unknown_offer', 'No such offer.', [{ path: 'body/offerIds', message: `${missing} is not an offer`, code: 'unknown_offer' }]);
    fields.offerIds = ids;
  }
  return fields;
}
