import { randomUUID } from 'node:crypto';
import { Offer, OfferItem } from '../../../server/modules/offers/models.ts';

/** The offers module's rows (offers and their items). */

const suffix = () => randomUUID().replace(/-/g, '').slice(0, 6).toUpperCase();

export type OfferOverrides = Partial<
  Pick<Offer, 'code' | 'showId' | 'name' | 'description' | 'bookingPath' | 'experienceType' | 'pricePerGuestVnd' | 'minGuests' | 'maxGuests' | 'salesStartsAt' | 'salesEndsAt' | 'status' | 'sortOrder'>
> & {
  /** Fulfillment items per guest: `[{ id, quantity }]` (quantity 1 unless told). */
  items?: Array<{ id: string; quantity?: number }>;
};

/** An ACTIVE dinner-and-show offer for any show (or `showId`'s), 1 500 000 VND a guest, 1 to 10 guests. */
export async function buildOffer(overrides: OfferOverrides = {}) {
  const { items = [], ...fields } = overrides;
  const code = fields.code ?? `OFFER-${suffix()}`;
  const offer = await Offer.query().insertAndFetch({
    code,
    showId: fields.showId ?? null,
    name: fields.name ?? { en: `Offer ${code}` },
    description: fields.description ?? {},
    bookingPath: fields.bookingPath ?? 'DINNER_SHOW',
    experienceType: fields.experienceType ?? 'STANDARD',
    pricePerGuestVnd: fields.pricePerGuestVnd ?? 1_500_000,
    minGuests: fields.minGuests ?? 1,
    maxGuests: fields.maxGuests ?? 10,
    salesStartsAt: fields.salesStartsAt ?? null,
    salesEndsAt: fields.salesEndsAt ?? null,
    status: fields.status ?? 'ACTIVE',
    sortOrder: fields.sortOrder ?? 0,
  });
  for (const item of items) await OfferItem.query().insert({ offerId: offer.id, fulfillmentItemId: item.id, quantityPerGuest: item.quantity ?? 1 });
  return offer;
}
