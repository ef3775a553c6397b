import type { Knex } from 'knex';
import { localDateRange } from '../../domain/venueTime.ts';
import { NotFound, Unprocessable } from '../../platform/http/problem.ts';
import { camelRow, reservationQuery, type ReservationDetails, type ReservationStatus } from '../booking/index.ts';
import { likeContaining } from '../shows/index.ts';
import type { ShowEventStatus } from '../showEvents/index.ts';

/**
 * The operators' reads of reservations (issue 9, "The operator"): the filtered list, one reservation with its
 * customer, table and payments, and the set-based SQL the commands need (the batch's selection, locking event rows,
 * what was paid). Other modules' tables (show_events, offers, customers, venue_tables, payments) are read here with
 * knex — their modules do not export models — and every row leaving this file is camelCase. Writes are commands
 * (commands/); state changes go through the booking module's transitions (lifecycle.ts).
 */

/** A reservation as staff read it: the booking view plus the customer record and the table. */
export interface StaffReservationDetails extends ReservationDetails {
  customerHonorific: string | null;
  customerName: string;
  customerEmail: string;
  customerPhone: string | null;
  customerIsDeleted: boolean;
  tableCode: string | null;
  tableZone: string | null;
  tableSeats: number | null;
}

export interface PaymentLine {
  id: string;
  gateway: string;
  status: string;
  amountVnd: number;
  refundedVnd: number;
  txnRef: string;
  createdAt: Date;
  succeededAt: Date | null;
}

/** `reservationQuery` with the customer record as staff keep it and the table (left join: it may be gone). */
function staffReservationQuery(knex: Knex) {
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
export async function staffReservation(knex: Knex, id: string): Promise<{ reservation: StaffReservationDetails; payments: PaymentLine[] }> {
  const row = await staffReservationQuery(knex).where('r.id', id).first();
  if (!row) throw NotFound('No such reservation.');
  const payments = await knex('payments')
    .where('reservation_id', id)
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }])
    .limit(100)
    .select('id', 'gateway', 'status', 'amount_vnd', 'refunded_vnd', 'txn_ref', 'created_at', 'succeeded_at');
  return { reservation: camelRow<StaffReservationDetails>(row), payments: payments.map((line) => camelRow<PaymentLine>(line)) };
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
 * Shared by the list, the batch update's filter and the exports module's reservations export (through this
 * module's door), so all three choose the same rows. A `date` that is no calendar date is 422 `invalid_date`,
 * thrown here, while the query is built.
 */
export function filterReservations(query: Knex.QueryBuilder, filters: ReservationFilters, zone: string, now: Date): Knex.QueryBuilder {
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

const filtered = (knex: Knex) => knex('reservations as r').join('show_events as e', 'e.id', 'r.show_event_id').join('customers as c', 'c.id', 'r.customer_id');

/** The list's orders, each total (its last key the id): the exports module reads the same order in batches. */
export const RESERVATION_ORDERS: Record<ReservationListOptions['sort'], ReadonlyArray<{ column: string; order: 'asc' | 'desc' }>> = {
  newest: [
    { column: 'r.created_at', order: 'desc' },
    { column: 'r.id', order: 'asc' },
  ],
  eventTime: [
    { column: 'e.starts_at', order: 'asc' },
    { column: 'r.created_at', order: 'desc' },
    { column: 'r.id', order: 'asc' },
  ],
};

export interface ReservationListOptions extends ReservationFilters {
  sort: 'newest' | 'eventTime';
  limit: number;
  offset: number;
}

export async function listReservations(knex: Knex, options: ReservationListOptions, zone: string, now = new Date()): Promise<{ items: StaffReservationDetails[]; total: number }> {
  const base = () => filterReservations(staffReservationQuery(knex), options, zone, now);
  const counted = filterReservations(filtered(knex), options, zone, now).count({ n: '*' }).first();
  const [items, total] = await Promise.all([base().orderBy([...RESERVATION_ORDERS[options.sort]]).limit(options.limit).offset(options.offset), counted]);
  return { items: (items as Array<Record<string, unknown>>).map((row) => camelRow<StaffReservationDetails>(row)), total: Number((total as { n: string | number } | undefined)?.n ?? 0) };
}

/** The ids the batch's filter chooses (event time, then creation, then id), at most `limit`. */
export async function filteredIds(trx: Knex.Transaction, filters: ReservationFilters, zone: string, now: Date, limit: number): Promise<string[]> {
  const rows = await filterReservations(filtered(trx), filters, zone, now)
    .orderBy([{ column: 'e.starts_at' }, { column: 'r.created_at' }, { column: 'r.id' }])
    .limit(limit)
    .select('r.id');
  return rows.map((row: { id: string }) => row.id);
}

// ---- what the commands read and lock ------------------------------------------------------------------------

/** Locks show events' rows (`for update`), in id order (the booking lock order: event, then reservation). */
export async function lockShowEvents(trx: Knex.Transaction, ids: string[]): Promise<void> {
  await trx('show_events').whereIn('id', ids).orderBy('id').forUpdate().select('id');
}

export interface LockedShowEvent {
  id: string;
  showId: string;
  slug: string;
  startsAt: Date;
  capacity: number;
  status: ShowEventStatus;
}

/** A show event's row, locked (`for update`). */
export async function lockShowEvent(trx: Knex.Transaction, id: string): Promise<LockedShowEvent> {
  return camelRow<LockedShowEvent>(await trx('show_events').where({ id }).forUpdate().first());
}

/** A show event's slug (`undefined`: no such event; `null`: the event predates slugs). */
export async function showEventSlug(trx: Knex.Transaction, id: string): Promise<{ slug: string | null } | undefined> {
  return trx('show_events').where({ id }).first('slug');
}

export interface OfferRange {
  id: string;
  code: string;
  showId: string | null;
  minGuests: number;
  maxGuests: number;
}

export async function offerOf(trx: Knex.Transaction, id: string): Promise<OfferRange> {
  return camelRow<OfferRange>(await trx('offers').where({ id }).first());
}

/** 422 `unknown_table` unless the floor plan has this table. */
export async function assertTable(trx: Knex.Transaction, tableId: string, path: string): Promise<void> {
  const table = await trx('venue_tables').where({ id: tableId }).first('id');
  if (!table) throw Unprocessable('unknown_table', 'No such table.', [{ path, message: 'is not a table of the floor plan', code: 'unknown_table' }]);
}

/** The event's active reservations — CONFIRMED, or HELD with the hold running — in id order. */
export async function activeReservationIds(trx: Knex.Transaction, eventId: string, now: Date): Promise<string[]> {
  const rows = await trx('reservations')
    .where('show_event_id', eventId)
    .andWhere((w) => w.where('status', 'CONFIRMED').orWhere((held) => held.where('status', 'HELD').andWhere('hold_expires_at', '>', now)))
    .orderBy('id')
    .select('id');
  return (rows as Array<{ id: string }>).map((row) => row.id);
}

/** What the guest paid and has not had back (whole VND). */
export async function paidOf(trx: Knex.Transaction, reservationId: string): Promise<number> {
  const row = await trx('payments')
    .where('reservation_id', reservationId)
    .whereIn('status', ['SUCCEEDED', 'PARTIALLY_REFUNDED'])
    .first(trx.raw('coalesce(sum(amount_vnd - refunded_vnd), 0) as paid'));
  return Number(row?.paid ?? 0);
}
