import type { Knex } from 'knex';
import { Conflict } from '../../../platform/http/problem.ts';
import { VoucherRedemption } from '../models.ts';
import { giveVoucherValueBack, markRedemptionsReleased, reservationVoucherCredit, takeVoucherValue } from '../queries.ts';

/**
 * The voucher's writes around a booking (not operations: the hold's price adjustment and the reservation
 * subscribers run them in the booking's transaction).
 */

const Insufficient = () => Conflict('voucher_balance_insufficient', 'The voucher no longer has the value this booking took from it.');

/** Takes `amount` off the voucher if it is live and has it (else 409); REDEEMED when nothing is left. */
async function takeCredit(trx: Knex.Transaction, voucherId: string, amount: number, now: Date): Promise<void> {
  if (!(await takeVoucherValue(trx, voucherId, amount, now))) throw Insufficient();
}

/** Once the held reservation exists: the credit it got is taken from the voucher and recorded. */
export async function redeemVoucher(trx: Knex.Transaction, voucherId: string, reservationId: string, now: Date): Promise<void> {
  const amount = await reservationVoucherCredit(trx, reservationId);
  if (amount <= 0) return;
  await takeCredit(trx, voucherId, amount, now);
  await VoucherRedemption.query(trx).insert({ voucherId, reservationId, amountVnd: amount, createdAt: now });
}

/** Gives the credit of these reservations back to their vouchers (not to a deleted one); idempotent. */
export async function releaseVoucherCredits(trx: Knex.Transaction, reservationIds: string[], now: Date): Promise<void> {
  const released = await markRedemptionsReleased(trx, reservationIds, now);
  const sums = new Map<string, number>();
  for (const { voucherId: id, amountVnd: amount } of released) sums.set(id, (sums.get(id) ?? 0) + amount);
  for (const [id, amount] of [...sums].sort(([a], [b]) => a.localeCompare(b))) await giveVoucherValueBack(trx, id, amount, now);
}

/** A late payment confirms an expired hold: the released credit is taken again (409 when it is gone). */
export async function retakeVoucherCredit(trx: Knex.Transaction, reservationId: string, now: Date): Promise<void> {
  const redemption = await VoucherRedemption.query(trx).where({ reservation_id: reservationId }).whereNotNull('released_at').select('id', 'voucher_id', 'amount_vnd').first();
  if (!redemption) return;
  await takeCredit(trx, redemption.voucherId, Number(redemption.amountVnd), now);
  await VoucherRedemption.query(trx).findById(redemption.id).patch({ releasedAt: null });
}
