import type { Knex } from 'knex';
import { localDateRange, startOfLocalDay } from '../../domain/venueTime.ts';
import { NotFound, Unprocessable } from '../../platform/http/problem.ts';
import type { LocalizedText } from '../../domain/localized.ts';
import type { FulfillmentKind } from '../fulfillment/index.ts';
import type { BookingPath } from '../offers/index.ts';
import type { TableZone } from '../../domain/tableZones.ts';
import { Show } from '../shows/index.ts';
import { ShowEvent, type ShowEventStatus } from './models.ts';

export interface ShowEventFilters {
  showId?: string;
  status?: ShowEventStatus;
  /** Local dates (VENUE_TIMEZONE), inclusive. */
  from?: string;
  to?: string;
  salesOpen?: boolean;
}

export interface ShowEventPage {
  items: ShowEvent[];
  total: number;
  limit: number;
  offset: number;
}

/** Events in start order (ties by id), the local date range read in the venue's zone. */
export async function listShowEvents(knex: Knex, zone: string, filters: ShowEventFilters, paging: { limit: number; offset: number }): Promise<ShowEventPage> {
  const { limit, offset } = paging;
  const base = ShowEvent.query(knex);
  if (filters.showId) base.where('show_id', filters.showId);
  if (filters.status) base.where('status', filters.status);
  if (filters.salesOpen !== undefined) base.where('sales_open', filters.salesOpen);
  if (filters.from && filters.to && filters.from > filters.to) {
    throw Unprocessable('invalid_date_range', '`from` is after `to`.', [{ path: 'query/from', message: 'must not be after to', code: 'range' }]);
  }
  if (filters.from && filters.to) {
    const { start, end } = localDateRange(filters.from, filters.to, zone);
    base.where('starts_at', '>=', start).where('starts_at', '<', end);
  } else if (filters.from) {
    base.where('starts_at', '>=', startOfLocalDay(filters.from, zone));
  } else if (filters.to) {
    base.where('starts_at', '<', localDateRange(filters.to, filters.to, zone).end);
  }
  const items = await base.clone().orderBy([{ column: 'starts_at' }, { column: 'id' }]).limit(limit).offset(offset);
  const total = await base.clone().resultSize();
  return { items, total, limit, offset };
}

export async function getShowEvent(knex: Knex, id: string): Promise<ShowEvent> {
  const event = await ShowEvent.query(knex).findById(id);
  if (!event) throw NotFound('No such show event.');
  return event;
}

/** The shows of `events`, by id (one query). */
export async function showsOf(knex: Knex, events: ShowEvent[]): Promise<Map<string, Show>> {
  const ids = [...new Set(events.map((event) => event.showId))];
  const shows = ids.length ? await Show.query(knex).whereIn('id', ids) : [];
  return new Map(shows.map((show) => [show.id, show]));
}

/** The event row locked for the rest of `trx` (SELECT … FOR UPDATE): state changes never race each other. */
export async function lockShowEvent(trx: Knex.Transaction, id: string): Promise<ShowEvent> {
  const event = await ShowEvent.query(trx).findById(id).forUpdate();
  if (!event) throw NotFound('No such show event.');
  return event;
}

// ---- the logistics' set-based reads (./logistics.ts assembles them) ----

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

export interface OfferItemRow {
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
export async function offerRows(knex: Knex, showId: string, bookedOfferIds: string[]): Promise<OfferItemRow[]> {
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

export async function zoneRows(knex: Knex): Promise<Array<{ zone: TableZone; tables: number; seats: number }>> {
  const rows: Array<{ zone: TableZone; tables: string | number; seats: string | number }> = await knex('venue_tables')
    .groupBy('zone')
    .select('zone', knex.raw('count(*) as tables'), knex.raw('coalesce(sum(seats), 0) as seats'));
  return rows.map((row) => ({ zone: row.zone, tables: Number(row.tables), seats: Number(row.seats) }));
}


/** Which of `slugs` events already hold. */
export async function takenSlugs(trx: Knex.Transaction, slugs: string[]): Promise<Set<string>> {
  return new Set<string>(slugs.length ? (await ShowEvent.query(trx).whereIn('slug', slugs).select('slug')).map((event) => event.slug!) : []);
}

/** Inserts events, skipping any whose slug a concurrent call took (ON CONFLICT): answers the slugs inserted. Commands only. */
export async function insertEventsIgnoringTakenSlugs(trx: Knex.Transaction, rows: Array<Record<string, unknown>>): Promise<string[]> {
  const inserted: Array<{ slug: string }> = rows.length ? await trx('show_events').insert(rows).onConflict('slug').ignore().returning('slug') : [];
  return inserted.map((row) => row.slug);
}

/** Locks `show_events` against writes for a backfill run. Commands only. */
export async function lockEventsTable(trx: Knex.Transaction): Promise<void> {
  await trx.raw('lock table show_events in share row exclusive mode');
}

/** Every event with its show's slug, in start order (the backfill's scan). */
export async function eventsWithShowSlugs(trx: Knex.Transaction): Promise<Array<{ id: string; slug: string | null; startsAt: Date; showSlug: string }>> {
  const rows: Array<{ id: string; slug: string | null; starts_at: Date; show_slug: string }> = await trx('show_events as e')
    .join('shows as s', 's.id', 'e.show_id')
    .orderBy([{ column: 'e.starts_at' }, { column: 'e.id' }])
    .select('e.id', 'e.slug', 'e.starts_at', 's.slug as show_slug');
  return rows.map((row) => ({ id: row.id, slug: row.slug, startsAt: row.starts_at, showSlug: row.show_slug }));
}

/** Clears the slugs of these events, then sets each new one (so a slug moving between events never collides). Commands only. */
export async function rewriteSlugs(trx: Knex.Transaction, changes: ReadonlyArray<{ eventId: string; to: string }>): Promise<void> {
  await trx('show_events').whereIn('id', changes.map((change) => change.eventId)).update({ slug: null });
  for (const change of changes) await trx('show_events').where('id', change.eventId).update({ slug: change.to, updated_at: trx.fn.now() });
}
