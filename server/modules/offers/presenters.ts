import { iso } from '../presenting.ts';
import { staffText, untranslated, type LocaleConfig } from '../../domain/localizedInput.ts';
import type { Schema } from '../../platform/http/handler.ts';
import type { OfferWithItems } from './queries.ts';

/** An offer for staff (allow-list) with its items, every site locale filled. */
export function presentOffer({ offer, items }: OfferWithItems, config: LocaleConfig): Schema<'Offer'> {
  return {
    id: offer.id,
    code: offer.code,
    showId: offer.showId,
    name: staffText(offer.name, config),
    description: staffText(offer.description, config),
    untranslated: untranslated({ name: offer.name, description: offer.description }, config),
    bookingPath: offer.bookingPath,
    experienceType: offer.experienceType,
    pricePerGuestVnd: offer.pricePerGuestVnd,
    minGuests: offer.minGuests,
    maxGuests: offer.maxGuests,
    salesStartsAt: iso(offer.salesStartsAt),
    salesEndsAt: iso(offer.salesEndsAt),
    status: offer.status,
    sortOrder: offer.sortOrder,
    items: items.map((item) => ({
      fulfillmentItemId: item.fulfillmentItemId,
      code: item.code,
      name: staffText(item.name, config),
      kind: item.kind,
      quantityPerGuest: item.quantityPerGuest,
    })),
    createdAt: iso(offer.createdAt)!,
    updatedAt: iso(offer.updatedAt)!,
  };
}
