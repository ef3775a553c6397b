import { Unprocessable } from '../../platform/http/problem.ts';
import { publish, subscriber } from '../../domain/events.ts';
import type { AdjustmentContext, PriceAdjustment } from '../../domain/bookingExtensions.ts';
import { effectiveVoucherStatus, normalizeVoucherCode } from './codes.ts';
import { redeemVoucher, releaseVoucherCredits, retakeVoucherCredit } from './commands/redeemVoucher.ts';
import { liveRedemption, lockVoucherByCode } from './queries.ts';

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

export async function voucherAdjustment(context: AdjustmentContext) {
  const { trx, input, now } = context;
  if (!input.voucherCode) return null;
  const voucher = await lockVoucherByCode(trx, normalizeVoucherCode(input.voucherCode));
  if (!voucher) throw refuse('voucher_invalid', 'No such voucher.');
  const status = effectiveVoucherStatus(voucher, now);
  if (status === 'EXPIRED') throw refuse('voucher_expired', 'This voucher has expired.');
  if (status === 'REDEEMED' || voucher.remainingValueVnd <= 0) throw refuse('voucher_empty', 'Nothing is left on this voucher.');
  return {
    kind: 'voucher' as const,
    creditVnd: voucher.remainingValueVnd,
    columns: { voucherCode: voucher.code },
    afterInsert: (reservationId: string) => redeemVoucher(trx, voucher.id, reservationId, now),
  };
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
      await retakeVoucherCredit(ctx.trx, reservationId, ctx.now);
      // Confirmed, the booking keeps the credit (until a cancellation gives it back): the voucher is redeemed (issue 36 §3).
      const redemption = await liveRedemption(ctx.trx, reservationId);
      if (redemption) await publish(ctx, 'voucher.redeemed', { ...redemption, reservationId });
    },
  }),
];
