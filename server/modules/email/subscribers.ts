import { subscriber } from '../../domain/events.ts';
import { queueCancellationEmail, queueConfirmationEmail, queueEventCancellationEmail, queueHoldExpiredJob, queuePayLaterEmail, queueRefundOutcomeEmail, scheduleReminder } from './commands/guestMessages.ts';

/**
 * The guest's confirmation e-mail (`reservation-confirmation`: the check-in QR, the manage-booking link, an `.ics`)
 * and its reminder's job (`REMINDER_HOURS_BEFORE` before the show), written in the confirming transaction, first:
 * a confirmation that rolls back leaves neither, and one that commits always has both.
 */
export const confirmationMessage = subscriber({
  name: 'email.confirmation',
  event: 'reservation.confirmed',
  phase: 'in-transaction',
  order: 5,
  async handle({ reservationId }, ctx) {
    await queueConfirmationEmail(ctx, reservationId);
    await scheduleReminder(ctx, reservationId);
  },
});

/**
 * The e-mail module's part of a hold's expiry: in the expiry's transaction, one `email.hold-expired` job for the
 * reservations it expired (the job writes each guest's `hold-expired` message). Every expired hold has a contact
 * e-mail (the reservation's snapshot), a phone booking staff left unpaid included: its guest learns the seats were
 * released too. Declared in the module's record (./index.ts).
 */
export const holdExpiredMessages = subscriber({
  name: 'email.hold-expired',
  event: 'holds.expired',
  phase: 'in-transaction',
  order: 10,
  handle: ({ reservationIds }, ctx) => queueHoldExpiredJob(ctx.trx, reservationIds, ctx.app.jobs),
});

/**
 * The guest's e-mail when a reservation is cancelled by its guest (`reservation-cancelled-by-guest`) or by staff
 * (`reservation-cancelled-by-venue`; the staff reason stays internal), unless the canceller said not to; when its
 * show event was cancelled (`cause`), `reservation-cancelled` with what was paid before the refunds (`paidVnd`).
 * Other system cancellations send nothing. In the cancelling transaction, last: the refunds this cancellation
 * requested (payments, order 10) exist, and the message says where each stands.
 */
export const cancellationMessage = subscriber({
  name: 'email.cancellation',
  event: 'reservation.cancelled',
  phase: 'in-transaction',
  order: 90,
  async handle({ reservationId, by, notifyGuest, cause, paidVnd }, ctx) {
    if (cause === 'event_cancelled') return queueEventCancellationEmail(ctx.trx, ctx.app, reservationId, paidVnd ?? 0);
    if (!notifyGuest || by === 'SYSTEM') return;
    await queueCancellationEmail(ctx, reservationId, by, ctx.now);
  },
});

/**
 * The guest's e-mail when a refund of their reservation's payment settles (`refund-completed` / `refund-failed`), in
 * the settling transaction. A payable that is no reservation's (a voucher order) has no such message.
 */
export const refundOutcomeMessage = subscriber({
  name: 'email.refund-outcome',
  event: 'refund.settled',
  phase: 'in-transaction',
  order: 10,
  async handle({ refundId, reservationId }, ctx) {
    if (reservationId) await queueRefundOutcomeEmail(ctx, refundId);
  },
});

/**
 * The guest chose to pay later and the seats are held until a deadline (issue 34 §1, `reservation.paymentDeferred`,
 * in the checkout's transaction): the bank transfer's details and deadline, and its reminder's job; or the wait for
 * staff's approval of paying at the venue.
 */
export const payLaterMessage = subscriber({
  name: 'email.pay-later',
  event: 'reservation.paymentDeferred',
  phase: 'in-transaction',
  order: 10,
  handle: (deferred, ctx) => queuePayLaterEmail(ctx, deferred),
});
