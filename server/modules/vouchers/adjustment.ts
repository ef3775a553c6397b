import type { Knex } from 'knex';
import { Conflict, Unprocessable } from '../../platform/http/problem.ts';
import { subscriber } from '../../domain/events.ts';
import type { AdjustmentContext, PriceAdjustment } from '../booking/index.ts';
import { effectiveVoucherStatus, normalizeVoucherCode, type VoucherRow } from './service.ts';

/**
 * A voucher on a booking (declared in the module's record; server/modules/booking/adjustments.ts): its remaining value pays
 * part or all of the total (a credit after service charge and VAT). At hold time the voucher row is locked
 * (`for update`): concurrent bookings with one voucher queue there and each sees what the one before left. Once
 * the reservation exists the credit it got is taken from the voucher in the same transaction by one conditional
 * update (`remaining ≥ credit`), so two redemptions can never spend more than the value, and the database CHECK
 * (`remaining ≥ 0`) is the last guard. A booking that ends CANCELLED or EXPIRED gives the credit back (not to a
 * deleted voucher); a late payment confirming an expired hold takes it again, or is 409 when it is gone.
 */

const refuse = (code: 'voucher_invalid' | 'voucher_expired' | 'voucher_empty', detail: string) => Unprocessable(code, detail, [{ path: 'body/voucherCode', message: detail, code }]);
const Insufficient = () => Conflict('voucher_balance_insufficient', 'The voucher no longer has the value this booking took from it.');

export async function voucherAdjustment(context: AdjustmentContext) {
  const { trx, input, now } = context;
  if (!input.voucherCode) return null;
  const voucher = (await trx('vouchers').where({ code: normalizeVoucherCode(input.voucherCode) }).forUpdate().first()) as VoucherRow | undefined;
  if (!voucher) throw refuse('voucher_invalid', 'No such voucher.');
  const status = effectiveVoucherStatus(voucher, now);
  if (status === 'EXPIRED') throw refuse('voucher_expired', 'This voucher has expired.');
  if (status === 'REDEEMED' || voucher.remaining_value_vnd <= 0) throw refuse('voucher_empty', 'Nothing is left on this voucher.');
  return {
    kind: 'voucher' as const,
    creditVnd: voucher.remaining_value_vnd,
    columns: { voucher_code: voucher.code },
    afterInsert: async (reservationId: string) => {
      const reservation = await trx('reservations').where({ id: reservationId }).first('voucher_credit_vnd');
      const amount = Number(reservation.voucher_credit_vnd);
      if (amount <= 0) return;
      await takeCredit(trx, voucher.id, amount, now);
      await trx('voucher_redemptions').insert({ voucher_id: voucher.id, reservation_id: reservationId, amount_vnd: amount, created_at: now });
    },
  };
}

/** Takes `amount` off the voucher if it is live and has it (else 409); REDEEMED when nothing is left. */
async function takeCredit(trx: Knex.Transaction, voucherId: string, amount: number, now: Date): Promise<void> {
  const taken = await trx('vouchers')
    .where({ id: voucherId, status: 'ACTIVE' })
    .andWhere('expires_at', '>', now)
    .andWhere('remaining_value_vnd', '>=', amount)
    .update({
      remaining_value_vnd: trx.raw('remaining_value_vnd - ?', [amount]),
      status: trx.raw("case when remaining_value_vnd - ? = 0 then 'REDEEMED' else 'ACTIVE' end", [amount]),
      updated_at: now,
    });
  if (!taken) throw Insufficient();
}

/** Gives the credit of these reservations back to their vouchers (not to a deleted one); idempotent. */
export async function releaseVoucherCredits(trx: Knex.Transaction, reservationIds: string[], now: Date): Promise<void> {
  const released: Array<{ voucher_id: string; amount_vnd: number }> = await trx('voucher_redemptions')
    .whereIn('reservation_id', reservationIds)
    .whereNull('released_at')
    .update({ released_at: now })
    .returning(['voucher_id', 'amount_vnd']);
  const sums = new Map<string, number>();
  for (const { voucher_id: id, amount_vnd: amount } of released) sums.set(id, (sums.get(id) ?? 0) + Number(amount));
  for (const [id, amount] of [...sums].sort(([a], [b]) => a.localeCompare(b))) {
    await trx('vouchers')
      .where({ id })
      .whereNot('status', 'EXPIRED')
      .update({ remaining_value_vnd: trx.raw('least(remaining_value_vnd + ?, initial_value_vnd)', [amount]), status: 'ACTIVE', updated_at: now });
  }
}

export const priceAdjustment: PriceAdjustment = { name: 'voucher', order: 20, adjust: voucherAdjustment };

export const subscribers = [
  subscriber({
    name: 'vouchers.release-on-cancel',
    event: 'reservation.cancelled',
    phase: 'in-transaction',
    order: 30,
    handle: ({ reservationId }, ctx) => releaseVoucherCredits(ctx.trx, [reservationId], ctx.now),
  }),
  subscriber({
    name: 'vouchers.release-on-expiry',
    event: 'holds.expired',
    phase: 'in-transaction',
    order: 30,
    handle: ({ reservationIds }, ctx) => releaseVoucherCredits(ctx.trx, reservationIds, ctx.now),
  }),
  subscriber({
    name: 'vouchers.retake-on-confirm',
    event: 'reservation.confirmed',
    phase: 'in-transaction',
    order: 20,
    async handle({ reservationId }, ctx) {
      const redemption = await ctx.trx('voucher_redemptions').where({ reservation_id: reservationId }).whereNotNull('released_at').first('id', 'voucher_id', 'amount_vnd');
      if (!redemption) return;
      await takeCredit(ctx.trx, redemption.voucher_id, Number(redemption.amount_vnd), ctx.now);
      await ctx.trx('voucher_redemptions').where({ id: redemption.id }).update({ released_at: null });
    },
  }),
];
