import type { Payable, PayableState } from '../../domain/payables.ts';
import { Problem } from '../../platform/http/problem.ts';
import { BUSINESS_EVENTS, captureBusinessEvent } from './events.ts';
import { confirmReservation } from './lifecycle.ts';
import { Reservation } from './models.ts';
import { lockedReservation, lockShowEvent } from './queries.ts';
import { statusAt } from './status.ts';

/** The payable kind of a reservation (`payments.payable_kind`). */
export const RESERVATION_PAYABLE = 'reservation';

/**
 * A reservation as the payments module settles it (server/domain/payables.ts), declared in booking's record. Locks
 * in the lifecycle's order (show event → reservation; payments locks its payment row after), so payments' locking is
 * what it was. A payment confirms the reservation; one it cannot take (cancelled, already paid, seats released) is
 * refunded by payments. Business events as before (`checkout started`, `payment completed`, …).
 */
export const reservationPayable: Payable = {
  kind: RESERVATION_PAYABLE,
  noun: 'reservation',
  payAtVenue: {
    en: 'Pay in cash or by card at the box office when you arrive, quoting your reservation reference. Your seats are held until the hold ends; the venue confirms your booking once it is paid or confirmed by our staff.',
    vi: 'Vui lòng thanh toán bằng tiền mặt hoặc thẻ tại quầy vé khi đến, kèm mã đặt chỗ. Chỗ được giữ đến khi hết thời gian giữ chỗ; đặt chỗ được xác nhận khi đã thanh toán hoặc khi nhân viên xác nhận.',
  },

  async lock(ctx, id) {
    const found = await Reservation.query(ctx.trx).findById(id).select('show_event_id');
    if (!found) return undefined;
    await lockShowEvent(ctx.trx, found.showEventId);
    return standing(await lockedReservation(ctx.trx, id), ctx.now);
  },

  async view(knex, id) {
    const row = await Reservation.query(knex).findById(id);
    return row ? standing(row, new Date()) : undefined;
  },

  async onPaid(ctx, payable, payment) {
    if (payment.via === 'desk') {
      // Staff recorded money they hold: once nothing is due, a HELD (or run-out) hold is confirmed; a hold whose
      // seats went is a 409 and nothing is recorded.
      const status = payable.status;
      if (payment.amountVnd === payable.totalVnd - payment.paidBeforeVnd && (status === 'HELD' || status === 'EXPIRED')) await confirmReservation(ctx, payable.id, { by: 'PAYMENT' });
      return null;
    }
    // Online: the reservation takes the money, or says why not (the money then goes back).
    const row = (await Reservation.query(ctx.trx).findById(payable.id).select('status', 'total_vnd'))!;
    if (row.status === 'CANCELLED') return 'reservation_cancelled: the reservation was cancelled before the payment arrived';
    if (payment.paidBeforeVnd >= row.totalVnd) return 'already_paid: the reservation was already paid in full';
    try {
      await confirmReservation(ctx, payable.id, { by: 'PAYMENT' });
      return null;
    } catch (err) {
      if (err instanceof Problem && err.status === 409) return `${err.code}: ${err.detail ?? err.message}`;
      throw err;
    }
  },

  async track(ctx, id, activity, properties) {
    await captureBusinessEvent(ctx.app, BUSINESS_EVENTS[activity], id, properties);
  },
};

/** What payments needs of a reservation (`now`: the unit of work's clock, or the read's). */
function standing(row: Reservation, now: Date): PayableState {
  const status = statusAt(row, now);
  const reference = row.reference;
  return {
    id: row.id,
    totalVnd: row.totalVnd,
    currency: 'VND',
    reference,
    txnRefPrefix: reference.replace(/^VN-/, ''),
    orderInfo: `Thanh toan dat cho ${reference}`,
    refundInfo: `Hoan tien ${reference}`,
    locale: row.locale ?? null,
    payBy: row.holdExpiresAt ? new Date(row.holdExpiresAt) : null,
    status,
    reservationId: row.id,
    refusal(channel) {
      const label = status.toLowerCase().replace('_', '-');
      if (channel === 'desk') {
        return status === 'CANCELLED' || status === 'NO_SHOW' ? { code: 'reservation_not_payable', detail: `A ${label} reservation cannot take a payment.` } : null;
      }
      if (status === 'EXPIRED') return { code: 'hold_expired', detail: 'The hold on these seats has run out; make a new booking.' };
      if (status === 'CONFIRMED' || status === 'CHECKED_IN') return { code: 'reservation_already_confirmed', detail: 'This reservation is already confirmed.' };
      if (status !== 'HELD') return { code: 'reservation_not_payable', detail: `A ${label} reservation cannot be paid.` };
      return null;
    },
  };
}
