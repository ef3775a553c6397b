import { createClient, guestReservation, type Schemas } from '@venue/sdk';

/** The API this site talks to: VITE_API_URL at build time, else `npm start`'s http://localhost:3000. */
export const API_URL: string = (import.meta.env.VITE_API_URL as string | undefined) || 'http://localhost:3000';

/**
 * Guests' calls carry no cookie (`credentials: 'omit'`): this site's origin is not a dashboard origin, and a
 * guest's booking is opened by its reference and token instead.
 */
export const api = createClient({ baseUrl: API_URL, credentials: 'omit' });

/** The dashboard page's client: the staff session cookie rides along (the API lists this origin in DASHBOARD_ORIGINS). */
export const dashboardApi = createClient({ baseUrl: API_URL, cookies: true });

export type { Schemas };
export const LOCALES = ['en', 'vi'] as const;
export type Locale = (typeof LOCALES)[number];

/** Whole VND, as the guest reads it: "1.500.000 ₫" (vi) or "₫1,500,000" (en). */
export function vnd(amount: number, locale: Locale): string {
  return new Intl.NumberFormat(locale === 'vi' ? 'vi-VN' : 'en-US', { style: 'currency', currency: 'VND', maximumFractionDigits: 0 }).format(amount);
}

export function when(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === 'vi' ? 'vi-VN' : 'en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: 'Asia/Ho_Chi_Minh' }).format(new Date(iso));
}

/** A problem+json answer's message for the guest (its detail, else its title), or a network failure's. */
export function problemText(error: unknown): string {
  if (error && typeof error === 'object') {
    const problem = error as { detail?: string; title?: string; code?: string; errors?: Array<{ path: string; message: string }> };
    const fields = problem.errors?.map((e) => `${e.path.replace(/^body\//, '')}: ${e.message}`).join('; ');
    return [problem.detail || problem.title || 'Something went wrong', fields].filter(Boolean).join(' — ');
  }
  return String(error);
}

// ---- the guest's bookings: reference → access token, kept in this browser ------------------------------------

const TOKENS = 'venue.bookingTokens';
export function rememberBooking(reference: string, token: string): void {
  const all = JSON.parse(localStorage.getItem(TOKENS) ?? '{}') as Record<string, string>;
  all[reference] = token;
  localStorage.setItem(TOKENS, JSON.stringify(all));
}
export function bookingToken(reference: string): string | undefined {
  return (JSON.parse(localStorage.getItem(TOKENS) ?? '{}') as Record<string, string>)[reference];
}
export const booking = (reference: string, token: string) => guestReservation(api, { reference, token });

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
  const raw = sessionStorage.getItem(ATTRIBUTION);
  if (!raw) return undefined;
  const attribution = JSON.parse(raw) as Attribution;
  return new Date(attribution.expiresAt).getTime() > Date.now() ? attribution : undefined;
}
