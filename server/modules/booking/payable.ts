import type { Payable, PayableState } from '../../domain/payables.ts';
import { publish } from '../../domain/events.ts';
import { Problem } from '../../platform/http/problem.ts';
import { BUSINESS_EVENTS, captureBusinessEvent } from './events.ts';
import { EXPIRE_HOLDS_QUEUE } from './jobs.ts';
import { confirmReservation } from './lifecycle.ts';
import { Reservation } from './models.ts';
import { payLaterTerms, transferReminderAt, type PayLaterRules } from './payLater.ts';
import { lockedReservation, lockShowEvent, payLaterRules } from './queries.ts';
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

  async lock(ctx, id) {
    const found = await Reservation.query(ctx.trx).findById(id).select('show_event_id');
    if (!found) return undefined;
    await lockShowEvent(ctx.trx, found.showEventId);
    const row = await lockedReservation(ctx.trx, id);
    return standing(row, ctx.now, await payLaterRules(ctx.trx, row.showEventId));
  },

  async view(knex, id) {
    const row = await Reservation.query(knex).findById(id);
    return row ? standing(row, new Date(), await payLaterRules(knex, row.showEventId)) : undefined;
  },

  /**
   * The guest chose to pay later (issue 34 §1, ./payLater.ts), the reservation locked (`lock`): paying at the venue
   * within the caps confirms it now (check-in token, the confirmation e-mail saying what is due at the door); above
   * them with staff approval, and for a bank transfer, the hold is kept until the terms' deadline — the row's
   * `hold_expires_at`, so availability, the guest's view and the expiry run all read it — with an expiry run
   * scheduled then, and `reservation.paymentDeferred` published for the guest's e-mail. Choosing again what is
   * already in force changes nothing and e-mails nobody again.
   */
  async deferPayment(ctx, payable, choice) {
    const offer = payable.payLater?.(choice.method);
    if (!offer?.terms) throw new Error(`deferPayment: ${choice.method} has no terms for reservation ${payable.id}`);
    const { terms } = offer;
    const row = (await Reservation.query(ctx.trx).findById(payable.id).select('pay_later_method', 'hold_expires_at', 'show_event_id'))!;
    if (terms.outcome === 'CONFIRMED') {
      await Reservation.query(ctx.trx).findById(payable.id).patch({ payLaterMethod: choice.method, updatedAt: ctx.now });
      await confirmReservation(ctx, payable.id, { by: 'SYSTEM' });
      return { ...terms, status: 'CONFIRMED' };
    }
    const payBy = terms.payBy!;
    const unchanged = row.payLaterMethod === choice.method && row.holdExpiresAt !== null && new Date(row.holdExpiresAt).getTime() === payBy.getTime();
    if (!unchanged) {
      await Reservation.query(ctx.trx).findById(payable.id).patch({ payLaterMethod: choice.method, holdExpiresAt: payBy, updatedAt: ctx.now });
      // The expiry run the hold scheduled at its first end finds nothing then; this one marks it when it lapses.
      if (!row.holdExpiresAt || payBy > new Date(row.holdExpiresAt)) await ctx.app.jobs.enqueue(EXPIRE_HOLDS_QUEUE, { reservationId: payable.id }, { trx: ctx.trx, startAfter: payBy });
      const rules = await payLaterRules(ctx.trx, row.showEventId);
      await publish(ctx, 'reservation.paymentDeferred', {
        reservationId: payable.id,
        method: choice.method,
        payBy,
        amountVnd: choice.amountVnd,
        transferReference: choice.transferReference ?? null,
        remindAt: transferReminderAt(terms, rules, ctx.now),
      });
    }
    return { ...terms, status: 'HELD' };
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
function standing(row: Reservation, now: Date, rules: PayLaterRules): PayableState {
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
    payLater: (method) => payLaterTerms(method, { guestCount: row.guestCount, createdAt: row.createdAt, holdExpiresAt: row.holdExpiresAt }, rules, now),
  };
}
