import type { Knex } from 'knex';
import type { Schema } from '../../platform/http/handler.ts';
import { fillLocales, type LocalizedText } from '../../domain/localized.ts';
import type { FulfillmentKind } from '../fulfillment/index.ts';
import type { BookingPath } from '../offers/index.ts';
import type { Show } from '../shows/index.ts';
import { TABLE_ZONES } from '../../domain/tableZones.ts';
import type { ShowEvent } from './models.ts';
import { presentShowEvent } from './presenters.ts';
import { bookingTotals, offerRows, zoneRows, type OfferItemRow } from './queries.ts';
import type { CatalogSettings } from './rules.ts';

export { bookingTotals, type BookingTotals, type OfferBookings, type ZoneBookings } from './queries.ts';

/**
 * The mission-control workload of one event (GET /api/show-events/{id}/logistics): the offers that apply to it
 * with their per-guest bill of materials, the floor by zone, and what the event's bookings make of them — guests
 * expected and checked in, tables in use, items to prepare (Σ over bookings of the offer's items × guests) and
 * their dietary tags. Every number is computed from stored rows; with no bookings they are 0.
 */

/** `countBookings` is the booking count this workload is computed from (a parameter so the arithmetic is tested before bookings exist). */
export async function eventLogistics(knex: Knex, event: ShowEvent, show: Show, settings: CatalogSettings, countBookings = bookingTotals): Promise<Schema<'ShowEventLogistics'>> {
  const localized = (text: LocalizedText | null) => fillLocales(text, settings.siteLocales, settings.defaultLocale);
  const bookings = await countBookings(knex, event.id);
  const rows = await offerRows(knex, show.id, [...bookings.byOffer.keys()]);
  const zones = await zoneRows(knex);

  const itemOf = (row: OfferItemRow, guests: number) => ({
    fulfillmentItemId: row.fulfillment_item_id!,
    code: row.item_code!,
    name: localized(row.item_name),
    kind: row.kind!,
    dietaryTags: row.dietary_tags ?? [],
    quantityPerGuest: row.quantity_per_guest!,
    toPrepare: row.quantity_per_guest! * guests,
  });
  type Offer = { offerId: string; code: string; name: LocalizedText; bookingPath: BookingPath; experienceType: string; showSpecific: boolean; guests: number; checkedIn: number; items: Array<ReturnType<typeof itemOf>> };
  const offers = new Map<string, Offer>();
  for (const row of rows) {
    let offer = offers.get(row.offer_id);
    if (!offer) {
      offer = {
        offerId: row.offer_id,
        code: row.offer_code,
        name: localized(row.offer_name),
        bookingPath: row.booking_path,
        experienceType: row.experience_type,
        showSpecific: row.show_id !== null,
        guests: bookings.byOffer.get(row.offer_id)?.guests ?? 0,
        checkedIn: bookings.byOffer.get(row.offer_id)?.checkedIn ?? 0,
        items: [],
      };
      offers.set(row.offer_id, offer);
    }
    if (row.fulfillment_item_id) offer.items.push(itemOf(row, offer.guests));
  }

  const fulfillment = new Map<string, { fulfillmentItemId: string; code: string; name: LocalizedText; kind: FulfillmentKind; dietaryTags: string[]; toPrepare: number }>();
  for (const offer of offers.values()) {
    for (const item of offer.items) {
      const total = fulfillment.get(item.fulfillmentItemId);
      if (total) total.toPrepare += item.toPrepare;
      else fulfillment.set(item.fulfillmentItemId, { fulfillmentItemId: item.fulfillmentItemId, code: item.code, name: item.name, kind: item.kind, dietaryTags: item.dietaryTags, toPrepare: item.toPrepare });
    }
  }
  const dietary = new Map<string, number>();
  for (const item of fulfillment.values()) for (const tag of item.dietaryTags) dietary.set(tag, (dietary.get(tag) ?? 0) + item.toPrepare);

  let expected = 0;
  let checkedIn = 0;
  const parties = { expected: 0, checkedIn: 0 };
  for (const counts of bookings.byOffer.values()) {
    expected += counts.guests;
    checkedIn += counts.checkedIn;
    parties.expected += counts.parties;
    parties.checkedIn += counts.partiesCheckedIn;
  }
  const floor = new Map(zones.map((zone) => [zone.zone, zone]));
  return {
    event: presentShowEvent(event, show, settings),
    show: { id: show.id, code: show.code, title: localized(show.title), durationMinutes: show.durationMinutes },
    guests: { capacity: event.capacity, expected, checkedIn, remaining: event.capacity - expected },
    parties,
    zones: TABLE_ZONES.map((zone) => ({
      zone,
      tables: floor.get(zone)?.tables ?? 0,
      seats: floor.get(zone)?.seats ?? 0,
      tablesInUse: bookings.byZone.get(zone)?.tablesInUse ?? 0,
      guestsSeated: bookings.byZone.get(zone)?.guestsSeated ?? 0,
    })),
    offers: [...offers.values()],
    fulfillment: [...fulfillment.values()].sort((a, b) => a.code.localeCompare(b.code)),
    dietaryTags: [...dietary.entries()].map(([tag, count]) => ({ tag, count })).sort((a, b) => a.tag.localeCompare(b.tag)),
    staffNotes: event.staffNotes,
  };
}
