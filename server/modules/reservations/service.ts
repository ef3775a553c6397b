import type { Knex } from 'knex';
import { localDateRange } from '../../domain/venueTime.ts';
import { NotFound, Unprocessable } from '../../platform/http/problem.ts';
import { reservationQuery, type ReservationStatus, type ReservationView } from '../booking/index.ts';
import { likeContaining } from '../shows/index.ts';

/**
 * The operators' reads of reservations (issue 9, "The operator"): the filtered list and one reservation with its
 * table and payments. Writes are commands (commands/); state changes go through server/modules/booking/lifecycle.ts.
 */

/** A reservation as staff read it: the booking view plus what only staff see. */
export interface StaffReservationRow extends ReservationView {
  show_event_id: string;
  offer_id: string;
  customer_id: string;
  table_id: string | null;
  staff_notes: string | null;
  referral_link_slug: string | null;
  referral_partner_slug: string | null;
  promo_discount_vnd: number;
  referral_discount_vnd: number;
  voucher_credit_vnd: number;
  confirmed_at: Date | null;
  confirmed_by: string | null;
  checked_in_at: Date | null;
  no_show_at: Date | null;
  expired_at: Date | null;
  cancelled_by: string | null;
  cancellation_reason: string | null;
  updated_at: Date;
  customer_honorific: string | null;
  customer_name: string;
  customer_email: string;
  customer_phone: string | null;
  customer_is_deleted: boolean;
  table_code: string | null;
  table_zone: string | null;
  table_seats: number | null;
}

export interface PaymentLine {
  id: string;
  gateway: string;
  status: string;
  amount_vnd: number;
  refunded_vnd: number;
  txn_ref: string;
  created_at: Date;
  succeeded_at: Date | null;
}

/** `reservationQuery` with the customer record as staff keep it and the table (left join: it may be gone). */
export function staffReservationQuery(knex: Knex) {
  return reservationQuery(knex)
    .join('customers as c', 'c.id', 'r.customer_id')
    .leftJoin('venue_tables as t', 't.id', 'r.table_id')
    .select(
      'c.honorific as customer_honorific',
      'c.name as customer_name',
      'c.email as customer_email',
      'c.phone as customer_phone',
      'c.is_deleted as customer_is_deleted',
      't.code as table_code',
      't.zone as table_zone',
      't.seats as table_seats',
    );
}

/** One reservation with its payments (newest first, at most 100); 404 when there is none. */
export async function staffReservation(knex: Knex, id: string): Promise<{ row: StaffReservationRow; payments: PaymentLine[] }> {
  const row = (await staffReservationQuery(knex).where('r.id', id).first()) as StaffReservationRow | undefined;
  if (!row) throw NotFound('No such reservation.');
  const payments = (await knex('payments')
    .where('reservation_id', id)
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }])
    .limit(100)
    .select('id', 'gateway', 'status', 'amount_vnd', 'refunded_vnd', 'txn_ref', 'created_at', 'succeeded_at')) as PaymentLine[];
  return { row, payments };
}

// ---- the list -----------------------------------------------------------------------------------------------

export interface ReservationFilters {
  eventId?: string;
  /** The event's local date (`YYYY-MM-DD` in the venue's time zone). */
  date?: string;
  /** As read: a HELD reservation past its hold is EXPIRED. */
  status?: ReservationStatus;
  q?: string;
}

/**
 * Narrows `query` (over `reservations as r` joined to `show_events as e` and `customers as c`) by the filters.
 * Shared by the list and the batch update's filter, so both choose the same rows.
 */
export function applyFilters(query: Knex.QueryBuilder, filters: ReservationFilters, zone: string, now: Date): Knex.QueryBuilder {
  if (filters.eventId) query.where('r.show_event_id', filters.eventId);
  if (filters.date) {
    let day: { start: Date; end: Date };
    try {
      day = localDateRange(filters.date, filters.date, zone);
    } catch {
      throw Unprocessable('invalid_date', 'The date is not a calendar date.', [{ path: 'date', message: 'is not a calendar date', code: 'invalid_date' }]);
    }
    query.where('e.starts_at', '>=', day.start).andWhere('e.starts_at', '<', day.end);
  }
  if (filters.status === 'HELD') query.where('r.status', 'HELD').andWhere('r.hold_expires_at', '>', now);
  else if (filters.status === 'EXPIRED') query.where((w) => w.where('r.status', 'EXPIRED').orWhere((h) => h.where('r.status', 'HELD').andWhere('r.hold_expires_at', '<=', now)));
  else if (filters.status) query.where('r.status', filters.status);
  const q = filters.q?.trim();
  if (q) {
    const pattern = likeContaining(q);
    query.where((w) =>
      w
        .where('r.reference', 'ilike', pattern)
        .orWhere('c.name', 'ilike', pattern)
        .orWhere('c.email', 'ilike', pattern)
        .orWhere('c.phone', 'ilike', pattern)
        .orWhere('r.contact_name', 'ilike', pattern)
        .orWhere('r.contact_phone', 'ilike', pattern),
    );
  }
  return query;
}

export interface ReservationListOptions extends ReservationFilters {
  sort: 'newest' | 'eventTime';
  limit: number;
  offset: number;
}

export async function listReservations(knex: Knex, options: ReservationListOptions, zone: string, now = new Date()): Promise<{ items: StaffReservationRow[]; total: number }> {
  const base = () => applyFilters(staffReservationQuery(knex), options, zone, now);
  const counted = applyFilters(knex('reservations as r').join('show_events as e', 'e.id', 'r.show_event_id').join('customers as c', 'c.id', 'r.customer_id'), options, zone, now)
    .count({ n: '*' })
    .first();
  const order =
    options.sort === 'eventTime'
      ? [{ column: 'e.starts_at', order: 'asc' }, { column: 'r.created_at', order: 'desc' }, { column: 'r.id', order: 'asc' }]
      : [{ column: 'r.created_at', order: 'desc' }, { column: 'r.id', order: 'asc' }];
  const [items, total] = await Promise.all([base().orderBy(order).limit(options.limit).offset(options.offset), counted]);
  return { items: items as StaffReservationRow[], total: Number((total as { n: string | number } | undefined)?.n ?? 0) };
}
