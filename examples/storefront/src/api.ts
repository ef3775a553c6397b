import { createClient, guestReservation, type Schemas } from '@venue/sdk';
import type { Locale } from './i18n.ts';

/** The API this site talks to: VITE_API_URL at build time, else `npm start`'s http://localhost:3000. */
export const API_URL: string = ((import.meta.env.VITE_API_URL as string | undefined) || 'http://localhost:3000').replace(/\/+$/, '');

/**
 * How long a call may take before the page gives up and offers to try again (issue 34 §3: a slow or unreachable
 * API is said, in the guest's language, with a retry; never "…" forever). VITE_API_TIMEOUT_MS, default 15 s.
 */
export const API_TIMEOUT_MS = Number(import.meta.env.VITE_API_TIMEOUT_MS) || 15_000;
/** After this long a page still loading says that the API is slow. */
export const SLOW_AFTER_MS = Number(import.meta.env.VITE_SLOW_AFTER_MS) || 4_000;

/** fetch with a deadline: past API_TIMEOUT_MS the call is aborted, and reads as "cannot reach the booking system". */
function fetchWithTimeout(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The API did not answer in time.', 'TimeoutError')), API_TIMEOUT_MS);
  request.signal.addEventListener('abort', () => controller.abort(request.signal.reason));
  return fetch(request, { signal: controller.signal }).finally(() => clearTimeout(timer));
}

/**
 * Guests' calls carry no cookie (`credentials: 'omit'`): this site's origin is not a dashboard origin, and a
 * guest's booking is opened by its reference and token instead.
 */
export const api = createClient({ baseUrl: API_URL, credentials: 'omit', fetch: fetchWithTimeout });

/** The dashboard page's client: the staff session cookie rides along (the API lists this origin in DASHBOARD_ORIGINS). */
export const dashboardApi = createClient({ baseUrl: API_URL, cookies: true, fetch: fetchWithTimeout });

export type { Schemas };

/** An API path (`/api/public/assets?key=…`, a show's image) as a URL the browser can load. */
export const apiUrl = (path: string): string => (/^https?:\/\//.test(path) ? path : `${API_URL}${path.startsWith('/') ? '' : '/'}${path}`);

// ---- calling the API without ever leaving a rejection behind ----------------------------------------------------

/** An answer: its data, or what went wrong (a problem document, or the network failure thrown by fetch). */
export type Outcome<T> = { ok: true; data: T } | { ok: false; error: unknown };

/**
 * Runs one SDK call: a problem answer and a thrown network failure (offline, refused, timed out) both come back as
 * `{ ok: false, error }`, which `describeProblem`/`messageFor` turn into the guest's words.
 */
export async function attempt<T>(call: () => Promise<{ data?: T; error?: unknown; response?: Response }>): Promise<Outcome<T>> {
  try {
    const { data, error, response } = await call();
    if (error === undefined && data !== undefined && (!response || response.ok)) return { ok: true, data };
    return { ok: false, error: error ?? { status: response?.status ?? 0 } };
  } catch (error) {
    return { ok: false, error };
  }
}

// ---- prices and times, as the guest reads them ------------------------------------------------------------------

const dateLocale = (locale: Locale) => (locale === 'vi' ? 'vi-VN' : 'en-GB');
export const VENUE_TIME_ZONE = (import.meta.env.VITE_VENUE_TIMEZONE as string | undefined) || 'Asia/Ho_Chi_Minh';

export { vnd } from './format.ts';

/** A performance's date and time: "Wednesday 2 December 2026 · 19:30" / "Thứ Tư, 2 tháng 12, 2026 · 19:30". */
export function when(iso: string, locale: Locale): string {
  const date = new Intl.DateTimeFormat(dateLocale(locale), { dateStyle: 'full', timeZone: VENUE_TIME_ZONE }).format(new Date(iso));
  const time = new Intl.DateTimeFormat(dateLocale(locale), { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: VENUE_TIME_ZONE }).format(new Date(iso));
  return `${date} · ${time}`;
}

/** A short date and time (holds, deadlines, doors): "2 Dec, 18:45" / "2 thg 12, 18:45". */
export function shortWhen(iso: string, locale: Locale): string {
  const date = new Intl.DateTimeFormat(dateLocale(locale), { day: 'numeric', month: 'short', timeZone: VENUE_TIME_ZONE }).format(new Date(iso));
  const time = new Intl.DateTimeFormat(dateLocale(locale), { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: VENUE_TIME_ZONE }).format(new Date(iso));
  return `${date}, ${time}`;
}

/** A calendar day of the venue (`2026-12-05`) → "Sat 5 Dec" / "T7, 5 thg 12". */
export function dayLabel(date: string, locale: Locale): string {
  return new Intl.DateTimeFormat(dateLocale(locale), { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

/** A month (`2026-12`) → "December 2026" / "tháng 12 năm 2026". */
export function monthLabel(month: string, locale: Locale): string {
  return new Intl.DateTimeFormat(dateLocale(locale), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));
}

/** Today's date in the venue's time zone, `YYYY-MM-DD`. */
export function venueToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: VENUE_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

// ---- the guest's bookings: reference → access token, kept in this browser ------------------------------------

const TOKENS = 'venue.bookingTokens';
function readJson<T>(storage: Storage, key: string, fallback: T): T {
  try {
    return (JSON.parse(storage.getItem(key) ?? 'null') as T | null) ?? fallback;
  } catch {
    return fallback;
  }
}
export function rememberBooking(reference: string, token: string): void {
  const all = readJson<Record<string, string>>(localStorage, TOKENS, {});
  all[reference] = token;
  localStorage.setItem(TOKENS, JSON.stringify(all));
}
export function bookingToken(reference: string): string | undefined {
  return readJson<Record<string, string>>(localStorage, TOKENS, {})[reference];
}
export const booking = (reference: string, token: string) => guestReservation(api, { reference, token });

// ---- the guest's gift-voucher orders: reference → access token, kept in this browser ----------------------------

const GIFT_ORDERS = 'venue.giftOrders';
export function rememberGiftOrder(reference: string, token: string): void {
  const all = readJson<Record<string, string>>(localStorage, GIFT_ORDERS, {});
  all[reference] = token;
  localStorage.setItem(GIFT_ORDERS, JSON.stringify(all));
}
export function giftOrderToken(reference: string): string | undefined {
  return readJson<Record<string, string>>(localStorage, GIFT_ORDERS, {})[reference];
}

// The booking itself says what paying later needs (`payLater`, issue 34 §1): no checkout answer is kept here.

// ---- the guest's language, for paths that carry none (`/`, `/go/…`, `/waitlist-offer`) ---------------------------

const LOCALE_KEY = 'venue.locale';
export function rememberLocale(locale: Locale): void {
  try {
    localStorage.setItem(LOCALE_KEY, locale);
  } catch {
    // Private mode without storage: the path keeps the locale anyway.
  }
}
export function preferredLocale(): Locale {
  const kept = (() => {
    try {
      return localStorage.getItem(LOCALE_KEY);
    } catch {
      return null;
    }
  })();
  if (kept === 'en' || kept === 'vi') return kept;
  return navigator.language.toLowerCase().startsWith('vi') ? 'vi' : 'en';
}

// ---- referral attribution from a /go/{slug} visit (kept for this tab's session) -------------------------------

const ATTRIBUTION = 'venue.attribution';
export interface Attribution {
  code: string | null;
  linkSlug: string;
  partnerSlug: string;
  token: string;
  expiresAt: string;
}
export function rememberAttribution(attribution: Attribution): void {
  sessionStorage.setItem(ATTRIBUTION, JSON.stringify(attribution));
}
export function currentAttribution(): Attribution | undefined {
  const attribution = readJson<Attribution | null>(sessionStorage, ATTRIBUTION, null);
  return attribution && new Date(attribution.expiresAt).getTime() > Date.now() ? attribution : undefined;
}
