import type { Call, OperationHandlers } from '../../platform/http/handler.ts';
import { answerOf, type CachedAnswer } from './cache.ts';
import { etagMatches, notModified, serializedJson } from '../../platform/http/handler.ts';
import { NotFound } from '../../platform/http/problem.ts';
import { presentEvent, presentEventPage, presentShow, presentShowDetail, type Presentation } from './presenters.ts';
import { dateWindow, findPublicEvent, findPublishedShow, listPublishedShows, listUpcomingEvents } from './queries.ts';

/**
 * Shared caches (a CDN, the browser) may keep a catalog read for a minute: availability moves as guests book,
 * and a minute-old "LIMITED" is fine for browsing because booking itself counts seats again under a lock.
 * After that, a revalidation with the ETag costs the reads but not the transfer (304).
 */
const CATALOG_CACHE = 'public, max-age=60';

/** The locale asked for when the site has it, else the default one (the answer's Content-Language says which). */
export function presentation(call: Call, locale: string | undefined): Presentation {
  const { siteLocales, defaultLocale, venueTimezone } = call.app.config;
  return { locale: locale && siteLocales.includes(locale) ? locale : defaultLocale, defaultLocale, zone: venueTimezone, now: new Date() };
}

/**
 * 200 with the body, a strong ETag over its JSON (the bytes sent) and the caching headers; 304 with the same
 * headers and no body when `If-None-Match` names that ETag.
 */
export function cacheable<B>(call: Call, p: Presentation, body: B) {
  return answered(call, p, answerOf(body));
}

/** `cacheable` for an answer kept in the catalog cache: its ETag and its bytes were made with it, once. */
function answered<B>(call: Call, p: Presentation, { body, etag, bytes }: CachedAnswer<B>) {
  const headers = { ETag: etag, 'Cache-Control': CATALOG_CACHE, 'Content-Language': p.locale };
  if (etagMatches(call.header('if-none-match') || undefined, etag)) return notModified(headers);
  return serializedJson(200, body, bytes, headers);
}

const NoSuchShow = () => NotFound('No such show.');

/**
 * The public reads answer from the catalog cache (./cache.ts): the key is the operation, the locale answered and
 * the parameters that shape the answer, each named (so their order in the URL does not matter).
 */
const keyOf = (operation: string, p: Presentation, parts: unknown[]) => JSON.stringify([operation, p.locale, ...parts.map((part) => part ?? null)]);

export const handlers = {
  async listPublicShows(call) {
    const p = presentation(call, call.query.locale);
    const page = { limit: call.query.limit ?? 20, offset: call.query.offset ?? 0 };
    const answer = await call.app.catalogCache.answer(keyOf('listPublicShows', p, [page.limit, page.offset]), p.now, async () => {
      const { shows, total, sales } = await listPublishedShows(call.app.db.knex, p.zone, p.now, page);
      return { items: shows.map((show) => presentShow(show, sales, p)), total, ...page, locale: p.locale };
    });
    return answered(call, p, answer);
  },

  async getPublicShow(call) {
    const p = presentation(call, call.query.locale);
    const answer = await call.app.catalogCache.answer(keyOf('getPublicShow', p, [call.params.slug]), p.now, async () => {
      const found = await findPublishedShow(call.app.db.knex, call.params.slug, p.zone, p.now);
      if (!found) throw NoSuchShow();
      return presentShowDetail(found.show, found.events, found.sales, p);
    });
    return answered(call, p, answer);
  },

  async listPublicShowEvents(call) {
    const { query } = call;
    const p = presentation(call, query.locale);
    const window = dateWindow(query, p.zone, p.now);
    const page = { limit: query.limit ?? 20, offset: query.offset ?? 0 };
    const key = keyOf('listPublicShowEvents', p, [window.from, window.to, query.show, page.limit, page.offset]);
    const answer = await call.app.catalogCache.answer(key, p.now, async () => {
      const { events, total, sales } = await listUpcomingEvents(call.app.db.knex, { zone: p.zone, start: window.start, end: window.end, now: p.now, showSlug: query.show, ...page });
      return {
        ...presentEventPage(events, sales, p),
        total,
        ...page,
        from: window.from,
        to: window.to,
        timeZone: p.zone,
        locale: p.locale,
      };
    });
    return answered(call, p, answer);
  },

  async getPublicShowEvent(call) {
    const p = presentation(call, call.query.locale);
    const answer = await call.app.catalogCache.answer(keyOf('getPublicShowEvent', p, [call.params.slug]), p.now, async () => {
      const found = await findPublicEvent(call.app.db.knex, call.params.slug, p.zone, p.now);
      if (!found) throw NotFound('No such show event.');
      return presentEvent(found.event, found.sales, p);
    });
    return answered(call, p, answer);
  },
} satisfies Partial<OperationHandlers>;
