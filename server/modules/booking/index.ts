import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { policy } from './policy.ts';

/** The `booking` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'booking', handlers, policy, jobs } satisfies ModuleRecord;
}

// ---- what other modules use (they import this module through this file only) ----
export { type Adjustment, type AdjustmentContext, type PriceAdjustment, priceBooking } from './adjustments.ts';
export { BUSINESS_EVENTS, captureBusinessEvent } from './events.ts';
export { EXPIRE_HOLDS_QUEUE } from './jobs.ts';
export { type TransitionActor, type TransitionContext, actorLabel, assertTransition, cancelReservation, confirmReservation, inTransition, lockReservation, markNoShow } from './lifecycle.ts';
export { type Contact, type ReservationStatus, type ReservationView, type SeatClaimProvider, createHold, effectiveStatus, normalizeEmail, reservationForGuest, reservationQuery, seatsTakenOf, upsertCustomer } from './service.ts';
export { digest, newAccessToken, openSecret, tokenMatches } from './tokens.ts';
