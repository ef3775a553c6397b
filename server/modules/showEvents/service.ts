import type { Knex } from 'knex';
import { localDateRange, startOfLocalDay } from '../../domain/venueTime.ts';
import type { Config } from '../../platform/config.ts';
import { Conflict, NotFound, Unprocessable } from '../../platform/http/problem.ts';
import { isUniqueViolation } from '../accounts/index.ts';
import { Show } from '../shows/index.ts';
import { ShowEvent, type ShowEventStatus } from './models.ts';

/** What the catalog reads from the configuration: the venue's zone and the site's locales. */
export type CatalogSettings = Pick<Config, 'venueTimezone' | 'siteLocales' | 'defaultLocale'>;

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

/** Runs `change` on the locked event in its own transaction; answers the event with its show. */
export async function changeShowEvent(knex: Knex, id: string, change: (trx: Knex.Transaction, event: ShowEvent) => Promise<ShowEvent>) {
  return knex.transaction(async (trx) => {
    const event = await change(trx, await lockShowEvent(trx, id));
    const show = await Show.query(trx).findById(event.showId);
    return { event, show: show! };
  });
}

export const eventClosed = (event: ShowEvent) =>
  Conflict('event_closed', `The event is ${event.status.toLowerCase()}; only a scheduled event changes.`);

/** A write whose slug another event holds → 409 `event_exists` (also when a concurrent write won the race). */
export async function withSlugCheck<T>(trx: Knex.Transaction, slug: string, exceptId: string | null, write: () => PromiseLike<T>): Promise<T> {
  const holder = await ShowEvent.query(trx).select('id').where('slug', slug).modify((q) => exceptId && q.whereNot('id', exceptId)).first();
  if (holder) throw slugTaken(slug);
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw slugTaken(slug);
    throw err;
  }
}

const slugTaken = (slug: string) => Conflict('event_exists', `The show already has an event at that local time (${slug}).`);

/** A body's `doorsAt` must not come after its `startsAt` (422, never the database's CHECK as a 500). */
export function checkDoors(startsAt: Date, doorsAt: Date | null): void {
  if (doorsAt && doorsAt > startsAt) {
    throw Unprocessable('doors_after_start', 'Doors cannot open after the show starts.', [{ path: 'body/doorsAt', message: 'must not be after startsAt', code: 'range' }]);
  }
}
