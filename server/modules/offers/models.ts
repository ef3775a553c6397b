import { BaseModel } from '../../platform/db/model.ts';
import type { LocalizedText } from '../../domain/localized.ts';

export const BOOKING_PATHS = ['DINNER_SHOW', 'SHOW_ONLY', 'VIP_DINNER_SHOW', 'PRIVATE_EVENT'] as const;
export type BookingPath = (typeof BOOKING_PATHS)[number];
export const OFFER_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

/** What a guest books (DOMAIN.md "Catalog"): a booking path at a per-guest VND price; `showId` null = every show. */
export class Offer extends BaseModel {
  static override tableName = 'offers';
  static override jsonAttributes = ['name', 'description'];
  code!: string;
  showId!: string | null;
  name!: LocalizedText;
  description!: LocalizedText;
  bookingPath!: BookingPath;
  experienceType!: string;
  pricePerGuestVnd!: number;
  minGuests!: number;
  maxGuests!: number;
  salesStartsAt!: Date | null;
  salesEndsAt!: Date | null;
  status!: OfferStatus;
  sortOrder!: number;
}

/** One fulfillment item of an offer, `quantityPerGuest` of it per guest (table `offer_items`, no id of its own). */
export class OfferItem extends BaseModel {
  static override tableName = 'offer_items';
  static override idColumn = ['offer_id', 'fulfillment_item_id'];
  offerId!: string;
  fulfillmentItemId!: string;
  quantityPerGuest!: number;
  override $beforeUpdate(): void {}
}
