import type { Knex } from 'knex';

/**
 * What other modules bring to a booking (issue 33 item 1): the types a module's record declares (`priceAdjustments`,
 * `seatClaims`, server/modules/record.ts) and the booking module calls, in the hold's transaction. They live here,
 * below every module, so the record type and the modules that declare an extension (promo codes, vouchers, referrals,
 * the waiting list) import no module for them; the booking module runs them (server/modules/booking/adjustments.ts
 * `priceBooking`, commands/createHold.ts).
 */

// ---- the request an extension sees ------------------------------------------------------------------------------

/** Who a booking is made for, as the guest or staff typed it. */
export interface Contact {
  honorific?: string;
  name: string;
  email: string;
  phone?: string;
  locale?: string;
}

export interface AnalyticsIds {
  sessionId?: string;
  distinctId?: string;
  localSessionId?: string;
}

/** A hold as the booking's commands take it (the guest's request, or staff's phone booking). */
export interface HoldInput {
  eventSlug: string;
  offerCode: string;
  guestCount: number;
  leadReference?: string;
  contact?: Contact;
  customerNote?: string;
  locale?: string;
  analytics?: AnalyticsIds;
  promoCode?: string;
  voucherCode?: string;
  /** The waiting list's offer link token (server/modules/waitlist): books the seats its offer holds. */
  waitlistToken?: string;
  referral?: { code?: string; linkSlug?: string; partnerSlug?: string; attributionToken?: string };
}

// ---- price adjustments ------------------------------------------------------------------------------------------

/**
 * What an adjustment may set on the reservation it prices (camelCase, the booking's `Reservation` model's fields;
 * the booking writes them on the row, so a field the model lacks, or types otherwise, fails tsc there).
 */
export type ReservationColumns = Partial<{
  promoCode: string | null;
  voucherCode: string | null;
  referralCode: string | null;
  referralLinkSlug: string | null;
  referralPartnerSlug: string | null;
  referralPartnerId: string | null;
  referralCodeId: string | null;
  referralLinkId: string | null;
  promoDiscountVnd: number;
  referralDiscountVnd: number;
  voucherCreditVnd: number;
}>;

export type AdjustmentKind = 'promo' | 'referral' | 'voucher';

/**
 * What changes a booking's price besides the offer and the commercial setup: a promo code (issue 13), a voucher
 * (issue 13), a referral attribution (issue 12). Each module declares its adjustment in its record
 * (`priceAdjustments`, with an order); a hold (and a staff re-pricing) runs them all, in that order, inside its
 * transaction and prices the booking with the sum (server/domain/pricing.ts `breakdown`):
 *
 * - `discountVnd` comes off the subtotal before the service charge and VAT (promo, referral);
 * - `creditVnd` comes off the total after VAT (a voucher's stored value).
 *
 * An adjustment that refuses the request (an unknown or expired code) throws a 4xx problem; one that does not
 * apply returns null. `columns` are written on the reservation (e.g. `promoCode`); `afterInsert` runs
 * once the row exists, in the same transaction (redemption rows, voucher balance).
 */
export interface AdjustmentContext {
  trx: Knex.Transaction;
  input: HoldInput;
  event: { id: string; showId: string; startsAt: Date };
  offer: { id: string; code: string; showId: string | null; pricePerGuestVnd: number };
  guestCount: number;
  subtotalVnd: number;
  now: Date;
}

export interface Adjustment {
  kind: AdjustmentKind;
  discountVnd?: number;
  creditVnd?: number;
  columns?: ReservationColumns;
  afterInsert?: (reservationId: string) => Promise<void>;
}

export type AdjustmentProvider = (context: AdjustmentContext) => Promise<Adjustment | null>;

/** One module's price adjustment, as its record declares it. */
export interface PriceAdjustment {
  name: string;
  /** Lower runs first (a refusal of an earlier one is what the guest hears). */
  order: number;
  adjust: AdjustmentProvider;
}

// ---- seat claims ------------------------------------------------------------------------------------------------

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
