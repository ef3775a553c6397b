/**
 * The `booking` module's door: what other modules may use (types, reads, services). It imports no handler and no
 * operation's command; its record is module.ts.
 */
export { type Adjustment, type AdjustmentContext, type PriceAdjustment, priceBooking } from './adjustments.ts';
export { createHold } from './commands/createHold.ts';
export { upsertCustomer } from './commands/upsertCustomer.ts';
export { BUSINESS_EVENTS, captureBusinessEvent } from './events.ts';
export { type SeatClaimProvider } from './extensions.ts';
export { type Contact, normalizeEmail } from './inputs.ts';
export { EXPIRE_HOLDS_QUEUE } from './jobs.ts';
export { assertTransition, cancelReservation, confirmReservation, markCheckedIn, markNoShow } from './lifecycle.ts';
export { type CustomerChanges, moveCustomerContacts, patchCustomer, softDeleteCustomer } from './contacts.ts';
export { Customer, CustomerEmail, Reservation } from './models.ts';
export { checkInQrPng, checkInQrSvg } from './qr.ts';
export { RESERVATION_PAYABLE } from './payable.ts';
export {
  type ReservationDetails,
  camelRow,
  guestReservation,
  lockedReservation,
  moveCustomerReservations,
  patchReservation,
  reservationQuery,
  seatsTakenOf,
} from './queries.ts';
export { type ReservationStatus, statusAt } from './status.ts';
/** Kept for referralCommissions (left to its own change): the platform's, server/platform/auth/tokens.ts. */
export { digest } from '../../platform/auth/tokens.ts';
