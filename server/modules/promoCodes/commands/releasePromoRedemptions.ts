import type { Knex } from 'knex';
import { PromoCodeRedemption } from '../models.ts';
import { decrementRedemptionCount, markRedemptionsReleased } from '../queries.ts';
import { takeRedemption } from './redeemPromoCode.ts';

/** Gives back the live redemptions of these reservations (cancelled or expired); idempotent. */
export async function releasePromoRedemptions(trx: Knex.Transaction, reservationIds: string[], now: Date): Promise<void> {
  const released = await markRedemptionsReleased(trx, reservationIds, now);
  const counts = new Map<string, number>();
  for (const id of released) counts.set(id, (counts.get(id) ?? 0) + 1);
  for (const [id, n] of [...counts].sort(([a], [b]) => a.localeCompare(b))) await decrementRedemptionCount(trx, id, n, now);
}

/** A late payment confirms an expired hold: its released redemption is taken again (409 when the code is used up). */
export async function retakePromoRedemption(trx: Knex.Transaction, reservationId: string): Promise<void> {
  const redemption = await PromoCodeRedemption.query(trx).where({ reservation_id: reservationId }).whereNotNull('released_at').select('id', 'promo_code_id').first();
  if (!redemption) return;
  await takeRedemption(trx, redemption.promoCodeId);
  await PromoCodeRedemption.query(trx).findById(redemption.id).patch({ releasedAt: null });
}
