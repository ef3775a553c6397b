import type { ModelObject } from 'objection';
import type { Reservation } from './models.ts';
import type { Knex } from 'knex';
import { breakdown, type PriceBreakdown } from '../../domain/pricing.ts';
import type { HoldInput } from './inputs.ts';

/**
 * What changes a booking's price besides the offer and the commercial setup: a promo code (issue 13), a voucher
 * (issue 13), a referral attribution (issue 12). Each module declares its adjustment in its record
 * (`priceAdjustments`, with an order); a hold (and a staff re-pricing) runs them all, in that order, inside its
 * transaction and prices the booking with the sum
 * (server/domain/pricing.ts `breakdown`):
 *
 * - `discountVnd` comes off the subtotal before the service charge and VAT (promo, referral);
 * - `creditVnd` comes off the total after VAT (a voucher's stored value).
 *
 * An adjustment that refuses the request (an unknown or expired code) throws a 4xx problem; one that does not
 * apply returns null. `columns` are written on the reservation (e.g. `promoCode`); `afterInsert` runs
 * once the row exists, in the same transaction (redemption rows, voucher balance).
 */
/** What an adjustment may set on the reservation it prices (camelCase, the `Reservation` model's fields). */
export type ReservationColumns = Partial<
  Pick<
    ModelObject<Reservation>,
    | 'promoCode'
    | 'voucherCode'
    | 'referralCode'
    | 'referralLinkSlug'
    | 'referralPartnerSlug'
    | 'referralPartnerId'
    | 'referralCodeId'
    | 'referralLinkId'
    | 'promoDiscountVnd'
    | 'referralDiscountVnd'
    | 'voucherCreditVnd'
  >
>;

export type AdjustmentKind = 'promo' | 'referral' | 'voucher';

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

export interface PricedBooking {
  price: PriceBreakdown;
  /** The reservation's fields: the amounts by kind and whatever the adjustments set. */
  columns: ReservationColumns;
  adjustments: Adjustment[];
}

/** Runs every declared adjustment (in their order) and prices the booking with their sum. */
export async function priceBooking(
  context: AdjustmentContext,
  rules: { serviceChargePercent: number; vatPercent: number },
  providers: readonly PriceAdjustment[],
): Promise<PricedBooking> {
  const adjustments: Adjustment[] = [];
  for (const provider of providers) {
    const adjustment = await provider.adjust(context);
    if (adjustment) adjustments.push(adjustment);
  }
  const sum = (kind: AdjustmentKind, field: 'discountVnd' | 'creditVnd') =>
    adjustments.filter((a) => a.kind === kind).reduce((total, a) => total + Math.max(0, Math.round(a[field] ?? 0)), 0);
  const promo = sum('promo', 'discountVnd');
  const referral = sum('referral', 'discountVnd');
  const voucher = adjustments.reduce((total, a) => total + Math.max(0, Math.round(a.creditVnd ?? 0)), 0);
  const price = breakdown(context.offer.pricePerGuestVnd, context.guestCount, rules, { discountVnd: promo + referral, creditVnd: voucher });
  // Capped amounts are shared out in order: promo first, then referral.
  const promoApplied = Math.min(promo, price.discountVnd);
  const columns: ReservationColumns = Object.assign(
    {
      promoDiscountVnd: promoApplied,
      referralDiscountVnd: price.discountVnd - promoApplied,
      voucherCreditVnd: price.creditVnd,
    },
    ...adjustments.map((a) => a.columns ?? {}),
  );
  return { price, columns, adjustments };
}
