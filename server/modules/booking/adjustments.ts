import type { ModelObject } from 'objection';
import type { Reservation } from './models.ts';
import { breakdown, type PriceBreakdown } from '../../domain/pricing.ts';
import type { Adjustment, AdjustmentContext, AdjustmentKind, PriceAdjustment, ReservationColumns } from '../../domain/bookingExtensions.ts';

/**
 * The booking's price adjustments: the types other modules declare theirs with live in server/domain/bookingExtensions.ts
 * (re-exported here for the booking's own files); the booking runs them (`priceBooking`).
 */
export type { Adjustment, AdjustmentContext, AdjustmentKind, AdjustmentProvider, PriceAdjustment, ReservationColumns } from '../../domain/bookingExtensions.ts';

type Holds<T extends true> = T;
/** The columns an adjustment may set are the reservation's own: a field the model lacks, or types otherwise, fails tsc here. */
export type ReservationColumnsFit = Holds<Required<ReservationColumns> extends Pick<ModelObject<Reservation>, keyof ReservationColumns> ? true : false>;

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
