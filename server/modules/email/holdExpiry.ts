import { onHoldsExpired } from '../booking/service.ts';
import { queueHoldExpiredJob } from './guestMessages.ts';

/**
 * The e-mail module's part of a hold's expiry: in the expiry's transaction, one `email.hold-expired` job for the
 * reservations it expired (the job writes each guest's `hold-expired` message). Every expired hold has a contact
 * e-mail (the reservation's snapshot), a phone booking staff left unpaid included: its guest learns the seats were
 * released too. Without a job engine (a test calling `expireHolds` bare) nothing is queued. Imported at boot by
 * ./handlers.ts.
 */
export const unregisterHoldExpiredMessages = onHoldsExpired('email.hold-expired', (trx, reservationIds, _now, jobs) => queueHoldExpiredJob(trx, reservationIds, jobs));
