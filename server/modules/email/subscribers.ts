import { subscriber } from '../../domain/events.ts';
import { queueCancellationEmail, queueHoldExpiredJob } from './commands/guestMessages.ts';

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
 * (`reservation-cancelled-by-venue`; the staff reason stays internal), unless the canceller said not to. System
 * cancellations (a cancelled show event) write their own message. In the cancelling transaction, last: the refunds
 * this cancellation requested (payments, order 10) exist, and the message says where each stands.
 */
export const cancellationMessage = subscriber({
  name: 'email.cancellation',
  event: 'reservation.cancelled',
  phase: 'in-transaction',
  order: 90,
  async handle({ reservationId, by, notifyGuest }, ctx) {
    if (!notifyGuest || by === 'SYSTEM') return;
    await queueCancellationEmail(ctx, reservationId, by, ctx.now);
  },
});
