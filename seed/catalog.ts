import type { Schemas, VenueClient } from '../sdk/index.ts';
import { describe, SeedError } from './errors.ts';
import { DEMO_COMMERCIAL_SETUP, DEMO_FULFILLMENT_ITEMS, DEMO_OFFERS, DEMO_SHOWS, DEMO_TABLES, DEMO_WEEKS } from './venue.ts';

/** What one step did: `created`, `updated` (some field differed and was set back to the demo value), `unchanged`. */
export interface SeedCounts {
  created: number;
  updated: number;
  unchanged: number;
}

export const zero = (): SeedCounts => ({ created: 0, updated: 0, unchanged: 0 });

/** The steps of the demo venue, in the order they run (each needs the ones before it). */
export const CATALOG_STEPS = ['fulfillment items', 'shows', 'offers', 'tables', 'commercial setup', 'events', 'knowledge', 'referrals'] as const;
export type CatalogStep = (typeof CATALOG_STEPS)[number];

type Result<T> = { data?: T; error?: unknown; response: Response };

/** The data of a successful answer, or a SeedError naming what failed. */
export function ok<T>(what: string, result: Result<T>): T {
  if (result.data === undefined) throw new SeedError(`${what} failed: ${describe(result.response.status, result.error)}`);
  return result.data;
}

/** Every row of a paged staff list (100 a page). */
export async function all<T>(what: string, page: (offset: number) => Promise<Result<{ items: T[]; total: number }>>): Promise<T[]> {
  const rows: T[] = [];
  for (;;) {
    const { items, total } = ok(what, await page(rows.length));
    rows.push(...items);
    if (items.length === 0 || rows.length >= total) return rows;
  }
}

type Localized = Readonly<Record<string, string>>;

/** Whether the staff view of a per-locale field already holds exactly `wanted` in each of its locales (own text, not a fill). */
function sameText(field: string, wanted: Localized, view: Localized, untranslated: readonly string[]): boolean {
  return Object.entries(wanted).every(([locale, text]) => view[locale] === text && !untranslated.includes(`${field}/${locale}`));
}

export const countsOf = (outcomes: ReadonlyArray<'created' | 'updated' | 'unchanged'>): SeedCounts => {
  const counts = zero();
  for (const outcome of outcomes) counts[outcome] += 1;
  return counts;
};

/** Fulfillment items: one upsert by code; the server says what it created, updated or left. */
export async function seedFulfillmentItems(client: VenueClient): Promise<SeedCounts> {
  const items = DEMO_FULFILLMENT_ITEMS.map((item) => ({ code: item.code, kind: item.kind, name: { ...item.name }, dietaryTags: [...item.dietaryTags] }));
  return ok('seeding fulfillment items', await client.POST('/api/sudo/create-fulfillment-items', { body: { items } })).counts;
}

/**
 * Shows: found by code in the staff list (every status). A missing one is created and published; an existing one
 * gets back the demo text, duration, age rule, canonical flag and sort order where they differ, and is published again if an
 * operator unpublished it. An archived show is left alone (archiving is final) and takes no new events.
 * Returns the codes of the shows that take events.
 */
export async function seedShows(client: VenueClient): Promise<{ counts: SeedCounts; scheduled: string[] }> {
  const existing = await all<Schemas['Show']>('listing shows', (offset) => client.GET('/api/shows', { params: { query: { limit: 100, offset } } }));
  const outcomes: Array<'created' | 'updated' | 'unchanged'> = [];
  const scheduled: string[] = [];
  for (const demo of DEMO_SHOWS) {
    const fields = {
      slug: demo.slug,
      title: { ...demo.title },
      summary: { ...demo.summary },
      description: { ...demo.description },
      durationMinutes: demo.durationMinutes,
      minimumAge: demo.minimumAge,
      canonical: demo.canonical,
      sortOrder: demo.sortOrder,
    };
    const show = existing.find((row) => row.code === demo.code);
    if (!show) {
      const created = ok(`creating show ${demo.code}`, await client.POST('/api/shows', { body: { code: demo.code, ...fields } }));
      ok(`publishing show ${demo.code}`, await client.POST('/api/shows/{showId}/publish', { params: { path: { showId: created.id } } }));
      outcomes.push('created');
      scheduled.push(demo.code);
      continue;
    }
    if (show.status === 'ARCHIVED') {
      outcomes.push('unchanged');
      continue;
    }
    const changes: Schemas['ShowUpdate'] = {};
    if (show.slug !== fields.slug) changes.slug = fields.slug;
    for (const field of ['title', 'summary', 'description'] as const) {
      if (!sameText(field, fields[field], show[field], show.untranslated)) changes[field] = fields[field];
    }
    if (show.durationMinutes !== fields.durationMinutes) changes.durationMinutes = fields.durationMinutes;
    if (show.minimumAge !== fields.minimumAge) changes.minimumAge = fields.minimumAge;
    if (show.canonical !== fields.canonical) changes.canonical = fields.canonical;
    if (show.sortOrder !== fields.sortOrder) changes.sortOrder = fields.sortOrder;
    const edit = Object.keys(changes).length > 0;
    if (edit) ok(`updating show ${demo.code}`, await client.PATCH('/api/shows/{showId}', { params: { path: { showId: show.id } }, body: changes }));
    const publish = show.status !== 'PUBLISHED';
    if (publish) ok(`publishing show ${demo.code}`, await client.POST('/api/shows/{showId}/publish', { params: { path: { showId: show.id } } }));
    outcomes.push(edit || publish ? 'updated' : 'unchanged');
    scheduled.push(demo.code);
  }
  return { counts: countsOf(outcomes), scheduled };
}

/** Offers: one upsert by code (each entry is the offer's whole state, so a deactivated demo offer is active again). */
export async function seedOffers(client: VenueClient): Promise<SeedCounts> {
  const offers = DEMO_OFFERS.map((offer) => ({
    code: offer.code,
    showCode: offer.showCode,
    name: { ...offer.name },
    description: { ...offer.description },
    bookingPath: offer.bookingPath,
    experienceType: offer.experienceType,
    pricePerGuestVnd: offer.pricePerGuestVnd,
    minGuests: offer.minGuests,
    maxGuests: offer.maxGuests,
    sortOrder: offer.sortOrder,
    items: offer.items.map((item) => ({ ...item })),
    status: 'ACTIVE' as const,
  }));
  return ok('seeding offers', await client.PUT('/api/sudo/offers', { body: { offers } })).counts;
}

/** Tables: the missing demo codes created, a demo table whose zone, seats or order differ set back; other tables kept. */
export async function seedTables(client: VenueClient): Promise<SeedCounts> {
  const existing = await all<Schemas['VenueTable']>('listing tables', (offset) => client.GET('/api/tables', { params: { query: { limit: 100, offset } } }));
  const outcomes: Array<'created' | 'updated' | 'unchanged'> = [];
  for (const demo of DEMO_TABLES) {
    const table = existing.find((row) => row.code === demo.code);
    if (!table) {
      ok(`creating table ${demo.code}`, await client.POST('/api/tables', { body: demo }));
      outcomes.push('created');
      continue;
    }
    const changes: Schemas['VenueTableUpdate'] = {};
    if (table.zone !== demo.zone) changes.zone = demo.zone;
    if (table.seats !== demo.seats) changes.seats = demo.seats;
    if (table.sortOrder !== demo.sortOrder) changes.sortOrder = demo.sortOrder;
    if (Object.keys(changes).length === 0) {
      outcomes.push('unchanged');
      continue;
    }
    ok(`updating table ${demo.code}`, await client.PATCH('/api/tables/{tableId}', { params: { path: { tableId: table.id } }, body: changes }));
    outcomes.push('updated');
  }
  return countsOf(outcomes);
}

/** The commercial setup (one row): patched with the fields that differ from the demo values, if any. */
export async function seedCommercialSetup(client: VenueClient): Promise<SeedCounts> {
  const current = ok('reading the commercial setup', await client.GET('/api/commercial-setup'));
  const changes: Record<string, unknown> = {};
  for (const [field, wanted] of Object.entries(DEMO_COMMERCIAL_SETUP)) {
    const have = current[field as keyof typeof current];
    const same = Array.isArray(wanted) ? Array.isArray(have) && [...have].sort().join() === [...wanted].sort().join() : have === wanted;
    if (!same) changes[field] = Array.isArray(wanted) ? [...wanted] : wanted;
  }
  if (Object.keys(changes).length === 0) return { created: 0, updated: 0, unchanged: 1 };
  ok('updating the commercial setup', await client.PATCH('/api/commercial-setup', { body: changes as Schemas['CommercialSetupUpdate'] }));
  return { created: 0, updated: 1, unchanged: 0 };
}

/** `YYYY-MM-DD` plus `days` (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/**
 * Events for the next DEMO_WEEKS weeks from today in the venue's time zone (the server tells both: the public
 * events list answers its default `from`, today there, and its `timeZone`), one batch per show and schedule, with
 * sales open. The batch is idempotent by slug: an event that exists, even one an operator cancelled, is left as it
 * is and counted unchanged. Run on a later day it adds the days that came into the window.
 */
export async function seedEvents(client: VenueClient, showCodes: readonly string[]): Promise<SeedCounts & { from: string; to: string; timeZone: string }> {
  const today = ok('reading the venue date', await client.GET('/api/public/show-events', { params: { query: { limit: 1 } } }));
  const from = today.from;
  const to = addDays(from, DEMO_WEEKS * 7 - 1);
  const counts = zero();
  for (const show of DEMO_SHOWS) {
    if (!showCodes.includes(show.code)) continue;
    const { schedule } = show;
    const patterns: Array<{ weekdays: readonly number[]; times: readonly string[] }> = [schedule];
    if ('extra' in schedule) patterns.push(schedule.extra);
    for (const pattern of patterns) {
      const body = {
        showCode: show.code,
        from,
        to,
        weekdays: [...pattern.weekdays],
        times: [...pattern.times],
        capacity: schedule.capacity,
        doorsMinutesBefore: schedule.doorsMinutesBefore,
        salesOpen: true,
      };
      const result = ok(`scheduling events of ${show.code}`, await client.POST('/api/sudo/show-events/batch', { body }));
      counts.created += result.created;
      counts.unchanged += result.unchanged;
    }
  }
  return { ...counts, from, to, timeZone: today.timeZone };
}

/** Whether the catalog already holds a show (any status): the boot-time seed then leaves the catalog to its operators. */
export async function catalogHasShows(client: VenueClient): Promise<boolean> {
  return ok('listing shows', await client.GET('/api/shows', { params: { query: { limit: 1 } } })).total > 0;
}
