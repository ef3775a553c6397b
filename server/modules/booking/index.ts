import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { reservationPayable } from './payable.ts';
import { policy } from './publicPolicy.ts';
import { bookingServices } from './services.ts';
import { cancellationBusinessEvent } from './subscribers.ts';

/** The `booking` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'booking', handlers, policy, jobs, subscribers: [cancellationBusinessEvent], services: bookingServices, payables: [reservationPayable] } satisfies ModuleRecord;
}

// ---- what other modules use (they import this module through this file only) ----
export { type Adjustment, type AdjustmentContext, type PriceAdjustment, priceBooking } from './adjustments.ts';
export { createHold } from './commands/createHold.ts';
export { upsertCustomer } from './commands/upsertCustomer.ts';
export { BUSINESS_EVENTS, captureBusinessEvent } from './events.ts';
export { type SeatClaimProvider } from './extensions.ts';
export { type Contact, normalizeEmail } from './inputs.ts';
export { EXPIRE_HOLDS_QUEUE } from './jobs.ts';
export { assertTransition, cancelReservation, confirmReservation, markCheckedIn, markNoShow } from './lifecycle.ts';
export { Reservation } from './models.ts';
export { checkInQrPng, checkInQrSvg } from './qr.ts';
export { RESERVATION_PAYABLE } from './payable.ts';
export {
  type ReservationDetails,
  camelRow,
  guestReservation,
  lockedReservation,
  reservationQuery,
  seatsTakenOf,
} from './queries.ts';
export { type ReservationStatus, statusAt } from './status.ts';
/** Kept for referralCommissions (left to its own change): the platform's, server/platform/auth/tokens.ts. */
export { digest } from '../../platform/auth/tokens.ts';
