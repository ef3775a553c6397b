import type { PriceAdjustment, SeatClaimProvider } from '../../domain/bookingExtensions.ts';

/** The types other modules declare a seat claim with live in server/domain/bookingExtensions.ts (re-exported here for the booking's own files). */
export type { SeatClaim, SeatClaimer, SeatClaimProvider } from '../../domain/bookingExtensions.ts';

/**
 * What other modules bring to a hold, declared in their records (`priceAdjustments`, `seatClaims`) and gathered
 * at boot (server/modules/index.ts): the booking module calls them, it never imports them.
 */
export interface BookingExtensions {
  priceAdjustments: readonly PriceAdjustment[];
  seatClaims: readonly SeatClaimProvider[];
}

declare module '../../platform/context.ts' {
  interface AppContext {
    /** What other modules bring to a hold (price adjustments, seat claims), declared in their records. */
    bookingExtensions: BookingExtensions;
  }
}
