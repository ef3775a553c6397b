import type { Knex } from 'knex';
import { expirePastOffers } from '../queries.ts';

/**
 * The offer-expiry job's step: offers past their expiry become EXPIRED (their seats are free again); answers the
 * events they held seats of. One set-based statement (atomic on its own, as it always was).
 */
export async function expireOffers(knex: Knex, now = new Date()): Promise<string[]> {
  return [...new Set(await expirePastOffers(knex, now))];
}
