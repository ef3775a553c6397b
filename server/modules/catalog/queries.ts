import type { Knex } from 'knex';
import { seatsTakenSql } from '../../domain/availability.ts';
import type { LocalizedText } from '../../domain/localized.ts';
import type { PricingRules } from '../../domain/pricing.ts';
import { addDays, localDateRange, localToday } from '../../domain/venueTime.ts';
import { Unprocessable } from '../../platform/http/problem.ts';
import type { FulfillmentKind } from '../fulfillment/index.ts';
import type { BookingPath } from '../offers/index.ts';
import type { ShowEventStatus } from '../showEvents/index.ts';
import { PURPOSES } from '../storage/index.ts';

/**
 * The public catalog's reads (the guest website). Each read is a fixed number of SQL statements whatever the
 * number of shows, events or offers: the rows it shows (events joined with their show, seats taken as a
 * correlated sub-select), and one row of the commercial setup carrying every offer on sale with its items
 * (json aggregation). Only published shows, and only events with a slug (the public key) ever leave here.
 */

/** Default window of the upcoming-events list, in local days after `from`. */
export const DEFAULT_RANGE_DAYS = 56;
/** Longest window one request may ask for (`to` − `from`, days). */
export const MAX_RANGE_DAYS = 120;
/** A show's page lists its events of the next this many local days… */
export const SHOW_PAGE_DAYS = 60;
/** …at most this many of them. */
export const SHOW_PAGE_MAX_EVENTS = 100;

/** Blob purposes served by the public asset route: only those become image URLs. */
const PUBLIC_PURPOSES = Object.entries(PURPOSES)
  .filter(([, rule]) => rule.public)
  .map(([purpose]) => purpose);

export interface EventRow {
  slug: string;
  starts_at: Date;
  /** `YYYY-MM-DD HH:mm` in the venue's zone (Postgres's own zone rules: no per-row date library work). */
  local_start: string;
  doors_at: Date | null;
  capacity: number;
  sales_open: boolean;
  status: ShowEventStatus;
  show_id: string;
  show_slug: string;
  show_title: LocalizedText;
  duration_minutes: number;
  minimum_age: number | null;
  seats_taken: number;
  total?: string | number;
}

export interface OfferItemRow {
  code: string;
  name: LocalizedText;
  kind: FulfillmentKind;
  dietaryTags: string[];
  quantityPerGuest: number;
}

export interface OfferRow {
  showId: string | null;
  code: string;
  name: LocalizedText;
  description: LocalizedText;
  bookingPath: BookingPath;
  experienceType: string;
  pricePerGuestVnd: number;
  minGuests: number;
  maxGuests: number;
  items: OfferItemRow[];
}

/** The commercial setup's public rules and the offers on sale now. */
export interface Sales {
  pricing: PricingRules;
  bookingCutoffMinutes: number;
  limitedAvailabilityThreshold: number;
  offers: OfferRow[];
}

export interface ShowRow {
  id: string;
  slug: string;
  code: string;
  title: LocalizedText;
  summary: LocalizedText;
  description: LocalizedText;
  duration_minutes: number;
  minimum_age: number | null;
  image_keys: string[];
  next_slug: string | null;
  next_starts_at: Date | null;
  next_local_start: string | null;
  total?: string | number;
}

/** An instant's local `YYYY-MM-DD HH:mm` in the zone bound at this place. */
const LOCAL_START = (column: string) => `to_char(${column} at time zone ?, 'YYYY-MM-DD HH24:MI')`;

/**
 * An event's columns with its show's, for the event reads; binds the zone (local start) and then seats taken.
 * Capacity and status are read for the availability state, never presented.
 */
const EVENT_COLUMNS = `e.slug, e.starts_at, ${LOCAL_START('e.starts_at')} as local_start, e.doors_at, e.capacity, e.sales_open, e.status,
            s.id as show_id, s.slug as show_slug, s.title as show_title, s.duration_minutes, s.minimum_age,
            ? as seats_taken`;

/** `fragment` (holding one `?`) with `value` bound, when there is a value; nothing otherwise. */
function optionalFilter(bindings: unknown[], fragment: string, value: unknown): string {
  if (value === undefined) return '';
  bindings.push(value);
  return fragment;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** pg and PGlite hand timestamps back as Date, json aggregates as parsed values; normalize the few that vary. */
const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

// ---- the date window ------------------------------------------------------------------------------------

export interface DateWindow {
  from: string;
  to: string;
  start: Date;
  end: Date;
}

/**
 * `from`..`to` (local dates in VENUE_TIMEZONE, inclusive) → the instants they cover. Defaults: today, and
 * `from` + 56 days. `to` before `from`, or more than 120 days after it, is 422 (the contract already refused
 * anything that is not a calendar date).
 */
export function dateWindow(query: { from?: string; to?: string }, zone: string, now: Date): DateWindow {
  // Every upcoming-events read resolves its window before its kept answer can be looked up, and the time-zone
  // arithmetic (luxon) cost more than the rest of a cached hit together (about 40 % of its CPU). So resolved
  // windows are kept: by their dates when both are given, else also by the venue's date today, itself kept
  // until the venue's next midnight. A refused window is not kept (it throws again, as cheaply).
  const key = `${zone}\n${query.from ?? ''}\n${query.to ?? ''}\n${query.from !== undefined && query.to !== undefined ? '' : venueToday(zone, now)}`;
  const known = resolvedWindows.get(key);
  if (known) return { from: known.from, to: known.to, start: new Date(known.start), end: new Date(known.end) };
  const window = resolveWindow(query, zone, now);
  if (resolvedWindows.size >= MAX_RESOLVED_WINDOWS) resolvedWindows.clear();
  resolvedWindows.set(key, { from: window.from, to: window.to, start: window.start.getTime(), end: window.end.getTime() });
  return window;
}

/** Resolved windows by zone, dates asked and (for a default) today; bounded (odd parameters cannot grow it). */
const resolvedWindows = new Map<string, { from: string; to: string; start: number; end: number }>();
const MAX_RESOLVED_WINDOWS = 256;
/** Per zone: the venue's date today and the instants its day covers, [start, end). */
const todays = new Map<string, { date: string; start: number; end: number }>();

/** The venue's local date at `now` (as `localToday`), recomputed only when `now` leaves the day last computed. */
function venueToday(zone: string, now: Date): string {
  const at = now.getTime();
  const known = todays.get(zone);
  if (known && known.start <= at && at < known.end) return known.date;
  const date = localToday(zone, now);
  const { start, end } = localDateRange(date, date, zone);
  todays.set(zone, { date, start: start.getTime(), end: end.getTime() });
  return date;
}

function resolveWindow(query: { from?: string; to?: string }, zone: string, now: Date): DateWindow {
  const from = query.from ?? venueToday(zone, now);
  const to = query.to ?? addDays(from, DEFAULT_RANGE_DAYS);
  if (to < from) {
    throw Unprocessable('invalid_date_range', '`to` is before `from`.', [{ path: 'query/to', message: 'must not be before from', code: 'invalid_date_range' }]);
  }
  if (to > addDays(from, MAX_RANGE_DAYS)) {
    throw Unprocessable('date_range_too_long', `Ask for at most ${MAX_RANGE_DAYS} days at a time.`, [
      { path: 'query/to', message: `must be at most ${MAX_RANGE_DAYS} days after from`, code: 'date_range_too_long' },
    ]);
  }
  return { from, to, ...localDateRange(from, to, zone) };
}

// ---- SQL --------------------------------------------------------------------------------------------------

export interface EventsFilter {
  /** The venue's IANA zone: local dates and times are computed in it. */
  zone: string;
  start: Date;
  end: Date;
  now: Date;
  showSlug?: string;
  limit: number;
  offset: number;
}

/**
 * Upcoming public events in [start, end), after `now`: SCHEDULED, with a slug, of a published show; ordered
 * by start, then slug. One statement: the show's columns by join, seats taken per row, the total by window.
 */
export function upcomingEventsQuery(knex: Knex, filter: EventsFilter): Knex.Raw {
  const bindings: unknown[] = [filter.zone, seatsTakenSql(knex, 'e.id', filter.now), filter.start, filter.end, filter.now];
  const showFilter = optionalFilter(bindings, 'and s.slug = ?', filter.showSlug);
  bindings.push(filter.limit, filter.offset);
  return knex.raw(
    `select ${EVENT_COLUMNS},
            count(*) over () as total
       from show_events e
       join shows s on s.id = e.show_id
      where s.status = 'PUBLISHED' and e.status = 'SCHEDULED' and e.slug is not null
        and e.starts_at >= ? and e.starts_at < ? and e.starts_at > ?
        ${showFilter}
      order by e.starts_at, e.slug
      limit ? offset ?`,
    bindings as Knex.RawBinding[],
  );
}

/**
 * The commercial setup's row with every offer on sale at `now` (ACTIVE, inside its sales window, for every
 * show or for a published one — only `showSlug`'s when given), each with its fulfillment items: one row.
 */
export function salesQuery(knex: Knex, now: Date, showSlug?: string): Knex.Raw {
  const bindings: unknown[] = [now, now];
  const showFilter = `select id from shows where status = 'PUBLISHED' ${optionalFilter(bindings, 'and slug = ?', showSlug)}`;
  return knex.raw(
    `select cs.booking_cutoff_minutes, cs.limited_availability_threshold, cs.service_charge_percent, cs.vat_percent,
            coalesce((
              select json_agg(json_build_object(
                       'showId', o.show_id, 'code', o.code, 'name', o.name, 'description', o.description,
                       'bookingPath', o.booking_path, 'experienceType', o.experience_type,
                       'pricePerGuestVnd', o.price_per_guest_vnd, 'minGuests', o.min_guests, 'maxGuests', o.max_guests,
                       'items', coalesce((
                         select json_agg(json_build_object(
                                  'code', fi.code, 'name', fi.name, 'kind', fi.kind, 'dietaryTags', fi.dietary_tags,
                                  'quantityPerGuest', oi.quantity_per_guest) order by fi.code)
                           from offer_items oi
                           join fulfillment_items fi on fi.id = oi.fulfillment_item_id
                          where oi.offer_id = o.id), '[]'::json)
                     ) order by o.sort_order, o.code)
                from offers o
               where o.status = 'ACTIVE'
                 and (o.sales_starts_at is null or o.sales_starts_at <= ?)
                 and (o.sales_ends_at is null or o.sales_ends_at > ?)
                 and (o.show_id is null or o.show_id in (${showFilter}))
            ), '[]'::json) as offers
       from commercial_setup cs
      where cs.id = 1`,
    bindings as Knex.RawBinding[],
  );
}

/** Published shows with their public image keys and next upcoming event, in sortOrder, code order. */
function showsQuery(knex: Knex, zone: string, now: Date, page: { slug?: string; limit: number; offset: number }): Knex.Raw {
  const bindings: unknown[] = [PUBLIC_PURPOSES, zone, now];
  const slugFilter = optionalFilter(bindings, 'and s.slug = ?', page.slug);
  bindings.push(page.limit, page.offset);
  return knex.raw(
    `select s.id, s.slug, s.code, s.title, s.summary, s.description, s.duration_minutes, s.minimum_age,
            coalesce((
              select json_agg(b.key order by i.position)
                from jsonb_array_elements_text(s.image_blob_ids) with ordinality as i(blob_id, position)
                join storage_blobs b on b.id::text = i.blob_id
               where b.purpose = any(?::text[]) and b.object_deleted_at is null
            ), '[]'::json) as image_keys,
            next_event.slug as next_slug, next_event.starts_at as next_starts_at,
            ${LOCAL_START('next_event.starts_at')} as next_local_start,
            count(*) over () as total
       from shows s
       left join lateral (
              select e.slug, e.starts_at
                from show_events e
               where e.show_id = s.id and e.status = 'SCHEDULED' and e.slug is not null and e.starts_at > ?
               order by e.starts_at, e.slug
               limit 1
            ) next_event on true
      where s.status = 'PUBLISHED' ${slugFilter}
      order by s.sort_order, s.code
      limit ? offset ?`,
    bindings as Knex.RawBinding[],
  );
}

/** One event by slug, whatever its status or time, of a published show. */
function eventBySlugQuery(knex: Knex, slug: string, zone: string, now: Date): Knex.Raw {
  return knex.raw(
    `select ${EVENT_COLUMNS}
       from show_events e
       join shows s on s.id = e.show_id
      where e.slug = ? and s.status = 'PUBLISHED'`,
    [zone, seatsTakenSql(knex, 'e.id', now), slug],
  );
}

// ---- reads ------------------------------------------------------------------------------------------------

function toEvent(row: EventRow): EventRow {
  return { ...row, starts_at: asDate(row.starts_at), doors_at: row.doors_at ? asDate(row.doors_at) : null, seats_taken: Number(row.seats_taken) };
}

function toSales(row: Record<string, any>): Sales {
  return {
    pricing: { serviceChargePercent: Number(row.service_charge_percent), vatPercent: Number(row.vat_percent) },
    bookingCutoffMinutes: Number(row.booking_cutoff_minutes),
    limitedAvailabilityThreshold: Number(row.limited_availability_threshold),
    offers: typeof row.offers === 'string' ? JSON.parse(row.offers) : row.offers,
  };
}

export async function loadSales(knex: Knex, now: Date, showSlug?: string): Promise<Sales> {
  return toSales(rowsOf<Record<string, unknown>>(await salesQuery(knex, now, showSlug))[0]);
}

/** Total of a windowed page; a page past the end has no row to carry it, so it is counted then (rare). */
async function totalOf(rows: Array<{ total?: string | number }>, offset: number, count: () => Promise<number>): Promise<number> {
  if (rows.length) return Number(rows[0].total);
  return offset > 0 ? count() : 0;
}

export async function listUpcomingEvents(knex: Knex, filter: EventsFilter): Promise<{ events: EventRow[]; total: number; sales: Sales }> {
  const [result, sales] = await Promise.all([upcomingEventsQuery(knex, filter), loadSales(knex, filter.now, filter.showSlug)]);
  const rows = rowsOf<EventRow>(result);
  const total = await totalOf(rows, filter.offset, async () => {
    const counted = rowsOf<EventRow>(await upcomingEventsQuery(knex, { ...filter, limit: 1, offset: 0 }));
    return counted.length ? Number(counted[0].total) : 0;
  });
  return { events: rows.map(toEvent), total, sales };
}

function toShow(row: ShowRow): ShowRow {
  return { ...row, next_starts_at: row.next_starts_at ? asDate(row.next_starts_at) : null };
}

export async function listPublishedShows(knex: Knex, zone: string, now: Date, page: { limit: number; offset: number }): Promise<{ shows: ShowRow[]; total: number; sales: Sales }> {
  const [result, sales] = await Promise.all([showsQuery(knex, zone, now, page), loadSales(knex, now)]);
  const rows = rowsOf<ShowRow>(result);
  const total = await totalOf(rows, page.offset, async () => {
    const counted = rowsOf<ShowRow>(await showsQuery(knex, zone, now, { limit: 1, offset: 0 }));
    return counted.length ? Number(counted[0].total) : 0;
  });
  return { shows: rows.map(toShow), total, sales };
}

/** A published show by slug with its events of the next SHOW_PAGE_DAYS local days, or undefined. */
export async function findPublishedShow(
  knex: Knex,
  slug: string,
  zone: string,
  now: Date,
): Promise<{ show: ShowRow; events: EventRow[]; window: DateWindow; sales: Sales } | undefined> {
  const window = dateWindow({ to: addDays(localToday(zone, now), SHOW_PAGE_DAYS) }, zone, now);
  const filter = { zone, start: window.start, end: window.end, now, showSlug: slug, limit: SHOW_PAGE_MAX_EVENTS, offset: 0 };
  const [showResult, eventsResult, sales] = await Promise.all([
    showsQuery(knex, zone, now, { slug, limit: 1, offset: 0 }),
    upcomingEventsQuery(knex, filter),
    loadSales(knex, now, slug),
  ]);
  const show = rowsOf<ShowRow>(showResult)[0];
  if (!show) return undefined;
  return { show: toShow(show), events: rowsOf<EventRow>(eventsResult).map(toEvent), window, sales };
}

/** One event of a published show by slug (any status, past ones too), or undefined. */
export async function findPublicEvent(knex: Knex, slug: string, zone: string, now: Date): Promise<{ event: EventRow; sales: Sales } | undefined> {
  const [result, sales] = await Promise.all([eventBySlugQuery(knex, slug, zone, now), loadSales(knex, now)]);
  const row = rowsOf<EventRow>(result)[0];
  return row ? { event: toEvent(row), sales } : undefined;
}
