import type { Call } from '../../platform/http/handler.ts';
import { etagMatches, notModified, serializedJson } from '../../platform/http/handler.ts';
import { answerOf, type CachedAnswer } from './cache.ts';
import type { Presentation } from './presenters.ts';

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
export function answered<B>(call: Call, p: Presentation, { body, etag, bytes }: CachedAnswer<B>) {
  const headers = { ETag: etag, 'Cache-Control': CATALOG_CACHE, 'Content-Language': p.locale };
  if (etagMatches(call.header('if-none-match') || undefined, etag)) return notModified(headers);
  return serializedJson(200, body, bytes, headers);
}
