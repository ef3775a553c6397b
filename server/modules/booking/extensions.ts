import type { Knex } from 'knex';
import type { PriceAdjustment } from './adjustments.ts';
import type { HoldInput } from './inputs.ts';

/** Seats a booking brings with it (held for it by another module), and what that module does once it exists. */
export interface SeatClaim {
  seats: number;
  afterInsert(reservationId: string): Promise<void>;
}

export type SeatClaimer = (trx: Knex.Transaction, input: HoldInput, event: { id: string }, now: Date) => Promise<SeatClaim | null>;

/** A module's claim on a booking's seats, as its record declares it; it runs in the hold's transaction with the event locked. */
export interface SeatClaimProvider {
  name: string;
  claim: SeatClaimer;
  /**
   * Whether `claim` may bring seats to this hold (e.g. it carries the module's token). A hold no provider may
   * claim for is judged before the event's lock too (createHold.ts `outlookBeforeLock`); without `applies`, every
   * hold is left to the locked count.
   */
  applies?(input: HoldInput): boolean;
}

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
