import { InputError } from './failure.ts';

/**
 * An expiry as typed: blank is "none" (null); `YYYY-MM-DD` is midnight UTC of that day; anything `Date` parses
 * as an ISO date-time is taken as is. `field` names the form field a mistake is reported on.
 */
export function parseExpiry(text: string, field: string): string | null {
  const value = text.trim();
  if (!value) return null;
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  const date = /^\d{4}-\d{2}-\d{2}T/.test(iso) ? new Date(iso) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) {
    throw new InputError('Not a date', `"${value}" is not a date: use YYYY-MM-DD or an ISO date-time, or leave it blank.`, [
      { path: field, message: 'use YYYY-MM-DD or an ISO date-time' },
    ]);
  }
  return date.toISOString();
}

/** `2030-01-02 13:04 UTC`, or the fallback for null. */
export function formatTimestamp(value: string | null | undefined, fallback = '—'): string {
  if (!value) return fallback;
  return `${new Date(value).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `2030-01-02`, or the fallback for null. */
export function formatDay(value: string | null | undefined, fallback = '—'): string {
  return value ? new Date(value).toISOString().slice(0, 10) : fallback;
}
