import { subscriber } from '../../domain/events.ts';
import { queueHoldExpiredJob } from './commands/guestMessages.ts';

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
