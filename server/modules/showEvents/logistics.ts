import type { Knex } from 'knex';
import { fillLocales, type LocalizedText } from '../../domain/localized.ts';
import type { FulfillmentKind } from '../fulfillment/index.ts';
import type { BookingPath } from '../offers/index.ts';
import type { Show } from '../shows/index.ts';
import { TABLE_ZONES, type TableZone } from '../tables/index.ts';
import type { ShowEvent } from './models.ts';
import { presentShowEvent } from './presenters.ts';
import type { CatalogSettings } from './service.ts';

/**
 * The mission-control workload of one event (GET /api/show-events/{id}/logistics): the offers that apply to it
 * with their per-guest bill of materials, the floor by zone, and what the event's bookings make of them — guests
 * expected and checked in, tables in use, items to prepare (Σ over bookings of the offer's items × guests) and
 * their dietary tags. Every number is computed from stored rows; with no bookings they are 0.
 */

export interface OfferBookings {
  /** Guests of CONFIRMED and CHECKED_IN reservations on the offer. */
  guests: number;
  checkedIn: number;
  /** The same reservations counted as parties (one per reservation), and those checked in. */
  parties: number;
  partiesCheckedIn: number;
}

export interface ZoneBookings {
  tablesInUse: number;
  guestsSeated: number;
}

export interface BookingTotals {
  byOffer: Map<string, OfferBookings>;
  byZone: Map<TableZone, ZoneBookings>;
}

/**
 * The event's bookings, counted (issue 9): one GROUP BY over the event's reservations that are CONFIRMED or
 * CHECKED_IN, by offer, and one by the zone of their table. HELD reservations are left out on purpose: a hold
 * is an unpaid 15-minute claim on seats (it counts for availability), not a guest the kitchen cooks for; it
 * joins the workload when it is confirmed. `checkedIn` is the guests of CHECKED_IN reservations; `parties` and
 * `partiesCheckedIn` count the same reservations one per booking (what the door checks in).
 */
export async function bookingTotals(knex: Knex, eventId: string): Promise<BookingTotals> {
  const live = (q: Knex.QueryBuilder) => q.where('r.show_event_id', eventId).whereIn('r.status', ['CONFIRMED', 'CHECKED_IN']);
  const [offers, zones] = await Promise.all([
    live(knex('reservations as r'))
      .groupBy('r.offer_id')
      .select(
        'r.offer_id',
        knex.raw('coalesce(sum(r.guest_count), 0) as guests'),
        knex.raw("coalesce(sum(case when r.status = 'CHECKED_IN' then r.guest_count else 0 end), 0) as checked_in"),
        knex.raw('count(*) as parties'),
        knex.raw("count(*) filter (where r.status = 'CHECKED_IN') as parties_checked_in"),
      ) as Promise<Array<{ offer_id: string; guests: string | number; checked_in: string | number; parties: string | number; parties_checked_in: string | number }>>,
    live(knex('reservations as r').join('venue_tables as t', 't.id', 'r.table_id'))
      .groupBy('t.zone')
      .select('t.zone', knex.raw('count(distinct t.id) as tables_in_use'), knex.raw('coalesce(sum(r.guest_count), 0) as guests_seated')) as Promise<
      Array<{ zone: TableZone; tables_in_use: string | number; guests_seated: string | number }>
    >,
  ]);
  return {
    byOffer: new Map(
      offers.map((row) => [
        row.offer_id,
        { guests: Number(row.guests), checkedIn: Number(row.checked_in), parties: Number(row.parties), partiesCheckedIn: Number(row.parties_checked_in) },
      ]),
    ),
    byZone: new Map(zones.map((row) => [row.zone, { tablesInUse: Number(row.tables_in_use), guestsSeated: Number(row.guests_seated) }])),
  };
}

interface OfferItemRow {
  offer_id: string;
  offer_code: string;
  offer_name: LocalizedText;
  booking_path: BookingPath;
  experience_type: string;
  show_id: string | null;
  fulfillment_item_id: string | null;
  item_code: string | null;
  item_name: LocalizedText | null;
  kind: FulfillmentKind | null;
  dietary_tags: string[] | null;
  quantity_per_guest: number | null;
}

/** The active offers of the show (its own and the all-shows ones) plus any offer the event's bookings use, with their items. */
async function offerRows(knex: Knex, showId: string, bookedOfferIds: string[]): Promise<OfferItemRow[]> {
  return knex('offers as o')
    .leftJoin('offer_items as oi', 'oi.offer_id', 'o.id')
    .leftJoin('fulfillment_items as f', 'f.id', 'oi.fulfillment_item_id')
    .where((q) => {
      q.where('o.status', 'ACTIVE').andWhere((s) => s.where('o.show_id', showId).orWhereNull('o.show_id'));
      if (bookedOfferIds.length) q.orWhereIn('o.id', bookedOfferIds);
    })
    .orderBy([{ column: 'o.sort_order' }, { column: 'o.code' }, { column: 'f.code' }])
    .select(
      'o.id as offer_id',
      'o.code as offer_code',
      'o.name as offer_name',
      'o.booking_path',
      'o.experience_type',
      'o.show_id',
      'f.id as fulfillment_item_id',
      'f.code as item_code',
      'f.name as item_name',
      'f.kind',
      'f.dietary_tags',
      'oi.quantity_per_guest',
    );
}

async function zoneRows(knex: Knex): Promise<Array<{ zone: TableZone; tables: number; seats: number }>> {
  const rows: Array<{ zone: TableZone; tables: string | number; seats: string | number }> = await knex('venue_tables')
    .groupBy('zone')
    .select('zone', knex.raw('count(*) as tables'), knex.raw('coalesce(sum(seats), 0) as seats'));
  return rows.map((row) => ({ zone: row.zone, tables: Number(row.tables), seats: Number(row.seats) }));
}

/** `countBookings` is the booking count this workload is computed from (a parameter so the arithmetic is tested before bookings exist). */
export async function eventLogistics(knex: Knex, event: ShowEvent, show: Show, settings: CatalogSettings, countBookings = bookingTotals) {
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
