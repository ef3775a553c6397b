import { DateTime } from 'luxon';
import type { Knex } from 'knex';
import type { AuthContext } from '../../platform/auth/context.ts';
import { NotFound } from '../../platform/http/problem.ts';
import { effectiveStatus, type ReservationStatus } from '../booking/index.ts';
import { digest } from '../booking/index.ts';
import type { ShowEventStatus } from '../showEvents/index.ts';
import type { TableZone } from '../tables/index.ts';

/**
 * The door (issue 9, "Check-in"; DOMAIN.md "Booking", check-in row): finding a reservation by id or by the
 * check-in token of its QR code, the rules a scan is judged by, and the door's history of a reservation.
 */

export const CHECK_IN_TYPES = ['ENTRY', 'EXIT'] as const;
export type CheckInType = (typeof CHECK_IN_TYPES)[number];

/** In the order they are checked (first match wins). */
export const CHECK_IN_REASONS = ['not_found', 'cancelled', 'unpaid', 'no_show', 'wrong_event', 'not_today', 'already_checked_in', 'not_checked_in'] as const;
export type CheckInReason = (typeof CHECK_IN_REASONS)[number];

/** How the door named the reservation. */
export type Target = { id: string } | { token: string };

// ---- the token ----------------------------------------------------------------------------------------------

/** A check-in token as issued: 32 random bytes in base64url (server/modules/booking/tokens.ts `newAccessToken`). */
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

// ---- the reservation as the door sees it --------------------------------------------------------------------

export interface DoorRow {
  id: string;
  reference: string;
  status: ReservationStatus;
  hold_expires_at: Date | null;
  guest_count: number;
  total_vnd: number;
  confirmed_by: 'PAYMENT' | 'STAFF' | 'SYSTEM' | null;
  checked_in_at: Date | null;
  staff_notes: string | null;
  show_event_id: string;
  offer_id: string;
  offer_code: string;
  offer_name: Record<string, string>;
  table_id: string | null;
  table_code: string | null;
  table_zone: TableZone | null;
  customer_honorific: string | null;
  customer_name: string;
  event_slug: string | null;
  event_status: ShowEventStatus;
  event_starts_at: Date;
  event_doors_at: Date | null;
  show_code: string;
  show_title: Record<string, string>;
  paid: boolean;
  paid_vnd: number;
}

/** Payments that count as paid; a REFUNDED one counts for nothing (its amount less its refunds is 0). */
const PAID_STATUSES = ['SUCCEEDED', 'PARTIALLY_REFUNDED'];

export async function doorRow(knex: Knex, id: string): Promise<DoorRow | undefined> {
  const row = await knex('reservations as r')
    .join('customers as c', 'c.id', 'r.customer_id')
    .join('offers as o', 'o.id', 'r.offer_id')
    .join('show_events as e', 'e.id', 'r.show_event_id')
    .join('shows as s', 's.id', 'e.show_id')
    .leftJoin('venue_tables as t', 't.id', 'r.table_id')
    .where('r.id', id)
    .first(
      'r.id',
      'r.reference',
      'r.status',
      'r.hold_expires_at',
      'r.guest_count',
      'r.total_vnd',
      'r.confirmed_by',
      'r.checked_in_at',
      'r.staff_notes',
      'r.show_event_id',
      'r.offer_id',
      'o.code as offer_code',
      'o.name as offer_name',
      'r.table_id',
      't.code as table_code',
      't.zone as table_zone',
      'c.honorific as customer_honorific',
      'c.name as customer_name',
      'e.slug as event_slug',
      'e.status as event_status',
      'e.starts_at as event_starts_at',
      'e.doors_at as event_doors_at',
      's.code as show_code',
      's.title as show_title',
      knex.raw(`exists (select 1 from payments p where p.reservation_id = r.id and p.status in (${PAID_STATUSES.map(() => '?').join(', ')})) as paid`, PAID_STATUSES),
      knex.raw(
        "(select coalesce(sum(p.amount_vnd - p.refunded_vnd), 0) from payments p where p.reservation_id = r.id and p.status in ('SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED')) as paid_vnd",
      ),
    );
  if (!row) return undefined;
  return { ...row, paid: Boolean(row.paid), paid_vnd: Number(row.paid_vnd), total_vnd: Number(row.total_vnd) } as DoorRow;
}

/**
 * The reservation id a target names, or undefined (an unknown id, a token that is none or opens nothing);
 * with `lock`, the reservation row is locked (`for update`) in the caller's transaction.
 */
export async function resolveTarget(knex: Knex, target: Target, lock = false): Promise<string | undefined> {
  let where: Record<string, unknown>;
  if ('id' in target) where = { id: target.id };
  else {
    const token = normalizeToken(target.token);
    if (!token) return undefined;
    where = { check_in_token_hash: digest(token) };
  }
  const query = knex('reservations').where(where);
  const row = await (lock ? query.forUpdate() : query).first('id');
  return row?.id;
}

// ---- history ----------------------------------------------------------------------------------------------------

export interface CheckInRow {
  id: string;
  reservation_id: string | null;
  show_event_id: string | null;
  type: CheckInType;
  identified_by: 'ID' | 'TOKEN';
  nonce: string;
  request_hash: Buffer;
  result: 'ok' | 'refused';
  reason: CheckInReason | null;
  operator: string;
  created_at: Date;
}

export const HISTORY_CAP = 200;

/** The reservation's newest attempts (at most HISTORY_CAP), oldest first. */
export async function history(knex: Knex, reservationId: string): Promise<CheckInRow[]> {
  const rows = (await knex('check_ins')
    .where({ reservation_id: reservationId })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(HISTORY_CAP)) as CheckInRow[];
  return rows.reverse();
}

/** Inside: checked in, and the last accepted scan is not an EXIT (a check-in made elsewhere counts as inside). */
export async function isInside(knex: Knex, row: Pick<DoorRow, 'id' | 'status'>): Promise<boolean> {
  if (row.status !== 'CHECKED_IN') return false;
  const last = await knex('check_ins')
    .where({ reservation_id: row.id, result: 'ok' })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .first('type');
  return last?.type !== 'EXIT';
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
export function refusal(row: DoorRow, type: CheckInType, at: Circumstances): CheckInReason | null {
  const status = effectiveStatus(row, at.now);
  if (status === 'CANCELLED' || row.event_status === 'CANCELLED') return 'cancelled';
  if (status === 'HELD' || status === 'EXPIRED') return 'unpaid';
  if (status === 'NO_SHOW') return 'no_show';
  if (at.showEventId && at.showEventId.toLowerCase() !== row.show_event_id) return 'wrong_event';
  if (type === 'ENTRY') {
    if (!isDoorDay(new Date(row.event_starts_at), at.now, at.zone)) return 'not_today';
    return at.inside ? 'already_checked_in' : null;
  }
  return at.inside ? null : 'not_checked_in';
}

export const NoSuchReservation = () => NotFound('No reservation has this id or check-in token.');
