import { DateTime } from 'luxon';
import type { AuthContext } from '../../platform/auth/context.ts';
import { NotFound } from '../../platform/http/problem.ts';
import { statusAt } from '../booking/index.ts';
import type { CheckInReason, CheckInType } from './models.ts';
import type { DoorReservation } from './queries.ts';

/**
 * The door (issue 9, "Check-in"; DOMAIN.md "Booking", check-in row): the check-in token as a scanner hands it over,
 * the door day, who scanned, and the rules a scan is judged by (pure; the reads are in queries.ts, the write in
 * commands/redeemCheckIn.ts).
 */

export { CHECK_IN_REASONS, CHECK_IN_TYPES, type CheckInReason, type CheckInType } from './models.ts';

/** How the door named the reservation. */
export type Target = { id: string } | { token: string };

// ---- the token ----------------------------------------------------------------------------------------------

/** A check-in token as issued: 32 random bytes in base64url (server/platform/auth/tokens.ts `newAccessToken`). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The token as a scanner or a person may hand it over, in its issued form, or undefined when it cannot be one:
 * whitespace anywhere (a scanner's trailing CR/LF or tab, spaces from copying) and `=` padding are dropped, and
 * standard base64's `+` and `/` are read as base64url's `-` and `_`. Case is never folded: base64url is
 * case-sensitive, so an upper-cased token is another token.
 */
export function normalizeToken(raw: string): string | undefined {
  const token = raw.replace(/\s+/g, '').replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return TOKEN_SHAPE.test(token) ? token : undefined;
}

// ---- the door day -------------------------------------------------------------------------------------------

/**
 * The door's day starts at 06:00 in VENUE_TIMEZONE, not at midnight: a show that starts at 23:30 still admits
 * latecomers at 00:40, and one that starts at 00:30 admits guests who arrive at 23:50 the evening before.
 * An event is "today" when its start and now fall on the same door day.
 */
export const DOOR_DAY_STARTS_AT_HOUR = 6;

/** The door day (`YYYY-MM-DD`, the local date its 06:00 falls on) of an instant in `zone`. */
export function doorDay(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).minus({ hours: DOOR_DAY_STARTS_AT_HOUR }).toISODate()!;
}

export const isDoorDay = (startsAt: Date, now: Date, zone: string) => doorDay(startsAt, zone) === doorDay(now, zone);

// ---- who scans --------------------------------------------------------------------------------------------------

/**
 * Who scanned, as the check-in row and the `operator check-in completed` event record it: a session's account
 * id, `api-key:<key id>` (a door device's key, not its owner), or `superuser-token:<n>` — never a name or an
 * e-mail.
 */
export function operatorLabel(auth: AuthContext): string {
  if (auth.authSource === 'api-key' && auth.identity.apiKeyId) return `api-key:${auth.identity.apiKeyId}`;
  if (auth.authSource === 'api-token') return `superuser-token:${auth.identity.superuserTokenIndex ?? 0}`;
  return auth.identity.accountId ?? auth.authSource;
}

// ---- the rules ----------------------------------------------------------------------------------------------

export interface Circumstances {
  inside: boolean;
  /** The event the door serves, when it said one. */
  showEventId?: string;
  now: Date;
  zone: string;
}

/** Why a scan of `type` would be refused now, or null when it would be accepted (CHECK_IN_REASONS' order). */
export function refusal(row: DoorReservation, type: CheckInType, at: Circumstances): CheckInReason | null {
  const status = statusAt(row, at.now);
  if (status === 'CANCELLED' || row.eventStatus === 'CANCELLED') return 'cancelled';
  if (status === 'HELD' || status === 'EXPIRED') return 'unpaid';
  if (status === 'NO_SHOW') return 'no_show';
  if (at.showEventId && at.showEventId.toLowerCase() !== row.showEventId) return 'wrong_event';
  if (type === 'ENTRY') {
    if (!isDoorDay(new Date(row.eventStartsAt), at.now, at.zone)) return 'not_today';
    return at.inside ? 'already_checked_in' : null;
  }
  return at.inside ? null : 'not_checked_in';
}

export const NoSuchReservation = () => NotFound('No reservation has this id or check-in token.');
