import type { Knex } from 'knex';
import { addDays, localToday } from '../../domain/venueTime.ts';
import type { Presentation } from '../catalog/index.ts';
import { dateWindow, listPublishedShows, listUpcomingEvents, MAX_RANGE_DAYS, type EventRow, type Sales, type ShowRow } from '../catalog/index.ts';

/**
 * The assistant-safe reads: the public catalog's own queries (server/modules/catalog/service.ts), over the
 * windows the assistant needs. Nothing here reads a table the public catalog does not.
 */

/** The horizon of `nextDates` and of `catalog/routes`' booking pages: the longest window the catalog serves. */
export const HORIZON_DAYS = MAX_RANGE_DAYS;
/** At most this many events over the horizon (every show together). */
export const HORIZON_MAX_EVENTS = 500;
/** At most this many shows (a venue has a handful). */
export const MAX_SHOWS = 100;
/** Default span of the events list: two weeks from `from`. */
export const EVENTS_DEFAULT_DAYS = 13;

/** Published shows and every upcoming event of the horizon (two statements plus the offers on sale, twice). */
export async function showsWithUpcoming(knex: Knex, p: Presentation): Promise<{ shows: ShowRow[]; events: EventRow[]; sales: Sales }> {
  const window = dateWindow({ to: addDays(localToday(p.zone, p.now), HORIZON_DAYS) }, p.zone, p.now);
  const [shows, upcoming] = await Promise.all([
    listPublishedShows(knex, p.zone, p.now, { limit: MAX_SHOWS, offset: 0 }),
    listUpcomingEvents(knex, { zone: p.zone, start: window.start, end: window.end, now: p.now, limit: HORIZON_MAX_EVENTS, offset: 0 }),
  ]);
  return { shows: shows.shows, events: upcoming.events, sales: shows.sales };
}

/** `from` (default today) .. `to` (default `from` + 13 days), checked like the catalog's window. */
export function eventsWindow(query: { from?: string; to?: string }, p: Presentation) {
  const from = query.from ?? localToday(p.zone, p.now);
  return dateWindow({ from, to: query.to ?? addDays(from, EVENTS_DEFAULT_DAYS) }, p.zone, p.now);
}

/** The upcoming events of one local date (at most 100), of one show when given. */
export async function eventsOnDate(knex: Knex, date: string, showSlug: string | undefined, p: Presentation) {
  const window = dateWindow({ from: date, to: date }, p.zone, p.now);
  return listUpcomingEvents(knex, { zone: p.zone, start: window.start, end: window.end, now: p.now, showSlug, limit: 100, offset: 0 });
}
