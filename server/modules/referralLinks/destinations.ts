import { Unprocessable } from '../../platform/http/problem.ts';

/** The public site's routes a link may lead to (after an optional locale prefix). */
const ROUTES = [/^\/$/, /^\/shows$/, /^\/shows\/[a-z0-9]+(-[a-z0-9]+)*$/, /^\/book\/[a-z0-9]+(-[a-z0-9]+)*$/, /^\/inquiries$/, /^\/waitlist$/, /^\/partners$/];

const InvalidDestination = (detail: string) => Unprocessable('invalid_destination', detail, [{ path: 'body/destination', message: detail, code: 'invalid_destination' }]);

/**
 * A destination as stored: a site path (`/shows/saigon-nights`, `/vi/book/…`), from a path or an absolute URL on
 * PUBLIC_SITE_URL's host. Outside hosts, other routes, queries and fragments are 422 `invalid_destination`.
 */
export function normalizeDestination(raw: string, config: { publicSiteUrl: string; siteLocales: string[] }): string {
  let path = raw.trim();
  if (!path.startsWith('/')) {
    let url: URL;
    try {
      url = new URL(path);
    } catch {
      throw InvalidDestination('must be a public site path such as /shows, or a URL on the public site');
    }
    const site = new URL(config.publicSiteUrl);
    if (url.protocol !== site.protocol || url.host !== site.host || url.username || url.password) throw InvalidDestination('must be on the public site');
    if (url.search || url.hash) throw InvalidDestination('must not carry a query or fragment');
    path = url.pathname;
  } else if (path.startsWith('//') || /[?#\\]/.test(path)) {
    throw InvalidDestination('must be a plain site path');
  }
  if (path.length > 1) path = path.replace(/\/+$/, '');
  const segments = path.split('/');
  const rest = segments.length > 1 && config.siteLocales.includes(segments[1]) ? `/${segments.slice(2).join('/')}` : path;
  if (!ROUTES.some((route) => route.test(rest))) throw InvalidDestination('is not a public site route (/, /shows, /shows/{slug}, /book/{eventSlug}, /inquiries, /waitlist, /partners)');
  return path;
}

/** The destination, absolute and locale-prefixed (a stored locale prefix wins over the guest's locale). */
export function absoluteDestination(path: string, locale: string, config: { publicSiteUrl: string; siteLocales: string[] }): string {
  const first = path.split('/')[1];
  const localized = config.siteLocales.includes(first) ? path : `/${locale}${path === '/' ? '' : path}`;
  return `${config.publicSiteUrl}${localized}`;
}
