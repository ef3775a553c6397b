import type { AppContext } from '../../platform/context.ts';
import type { Schema } from '../../platform/http/handler.ts';
import { assertBookable, priceHold } from './commands/createHold.ts';
import type { HoldInput } from './inputs.ts';
import { bookingRules, eventBySlug, offerByCode } from './queries.ts';

export type QuoteInput = Pick<HoldInput, 'eventSlug' | 'offerCode' | 'guestCount' | 'promoCode' | 'referral'>;

/**
 * A party's price before the hold (issue 34 §3: the storefront shows the total, service charge and VAT included,
 * before it takes seats): the hold's own pricing — the event and offer judged as the hold judges them
 * (`assertBookable`: the same 404, 409 and 422 `guest_count_out_of_range` outside the offer's limits), then
 * `priceHold` (the hold's `priceBooking` call) with every module's price adjustments (a promo code, a referral code's guest discount), so a hold
 * made at once with the same body charges this price. It reads in a transaction that is always rolled back: an
 * adjustment may lock the row it reads (a promo code, `for update`), never writes (its `afterInsert` runs only for
 * a hold), and nothing of it outlives the answer. No seat is taken or counted: the hold says whether the party fits.
 */
export async function quoteBooking(app: Pick<AppContext, 'db' | 'bookingExtensions'>, input: QuoteInput, now = new Date()): Promise<Schema<'BookingQuote'>> {
  const trx = await app.db.knex.transaction();
  try {
    const rules = await bookingRules(trx);
    const { event, offer } = assertBookable(await eventBySlug(trx, input.eventSlug), rules, await offerByCode(trx, input.offerCode), input, now);
    const { price, columns } = await priceHold(trx, input, event, offer, rules, app.bookingExtensions, now);
    return {
      eventSlug: event.slug,
      offerCode: offer.code,
      guestCount: input.guestCount,
      price: {
        currency: 'VND',
        pricePerGuestVnd: price.pricePerGuestVnd,
        subtotalVnd: price.subtotalVnd,
        discountVnd: price.discountVnd,
        serviceChargeVnd: price.serviceChargeVnd,
        vatVnd: price.vatVnd,
        voucherCreditVnd: price.creditVnd,
        totalVnd: price.totalVnd,
        serviceChargePercent: rules.serviceChargePercent,
        vatPercent: rules.vatPercent,
      },
      promoDiscountVnd: columns.promoDiscountVnd ?? 0,
      referralDiscountVnd: columns.referralDiscountVnd ?? 0,
      promoCode: columns.promoCode ?? null,
      referralCode: columns.referralCodeId ? (columns.referralCode ?? null) : null,
    };
  } finally {
    await trx.rollback();
  }
}
