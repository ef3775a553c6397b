import type { Knex } from 'knex';
import { pickLocale, type LocalizedText } from '../../domain/localized.ts';
import { localDateRange, toLocal } from '../../domain/venueTime.ts';
import { keysetBatches, type KeysetKey } from '../../platform/db/keyset.ts';
import { Unprocessable } from '../../platform/http/problem.ts';
import type { TabularColumn, TabularSheet } from '../../platform/tabular.ts';
import { statusAt, type ReservationStatus } from '../booking/index.ts';
import { filterCustomers, type CustomerFilters } from '../customers/index.ts';
import { filterInquiries, type InquiryFilters } from '../inquiries/index.ts';
import { PAID_STATUSES } from '../payments/index.ts';
import { filterReservations, RESERVATION_ORDERS, type ReservationFilters } from '../reservations/index.ts';
import { filterEntries, type WaitlistFilters } from '../waitlist/index.ts';

/**
 * The list exports (issue 36 §2), in the manner of pretix's exporters: each is a query over the owners' tables —
 * filtered by the owner's own filter function, so an export holds exactly what the staff list shows — read in
 * keyset batches in the list's order, and the columns it is written with. Writing (CSV or XLSX) is the platform's
 * (server/platform/tabular.ts). Reading another module's tables here is SQL only; nothing is written.
 *
 * Every column is an allow-list entry, as a presenter's field is: no token or its hash, no analytics id, no
 * gateway callback body, no e-mail body leaves through an export.
 */

export interface ExportContext {
  knex: Knex;
  /** VENUE_TIMEZONE: local days and the wall-clock times of the cells. */
  zone: string;
  defaultLocale: string;
  /** One instant for the whole export: a HELD reservation past its hold reads EXPIRED as of it. */
  now: Date;
}

type Row = Record<string, any>;
export type ListSheet = TabularSheet<Row>;

const text = (header: string, value: (row: Row) => unknown, width?: number): TabularColumn<Row> => ({
  header,
  type: 'text',
  value: (row) => (value(row) as string | null | undefined) ?? null,
  width,
});
const typed = (header: string, type: TabularColumn<Row>['type'], key: string): TabularColumn<Row> => ({ header, type, value: (row) => row[key] });

/** Keys of a list's order as keyset keys (`{ column, order }` → `{ sql, order }`). */
const keysOf = (order: ReadonlyArray<{ column: string; order: 'asc' | 'desc' }>): KeysetKey[] => order.map((key) => ({ sql: key.column, order: key.order }));

/** What was paid for a reservation and not given back (as the staff view and `paidOf` count it). */
function paidSubquery(knex: Knex) {
  return knex('payments as pp')
    .whereRaw('pp.reservation_id = r.id')
    .whereIn('pp.status', [...PAID_STATUSES])
    .select(knex.raw('coalesce(sum(pp.amount_vnd - pp.refunded_vnd), 0)'))
    .as('paid_vnd');
}

/** `from`..`to` (local dates, inclusive) as a bound on `sql`; 422 `invalid_date_range` when `to` is before `from`. */
function localDays(query: Knex.QueryBuilder, sql: string, range: { from?: string; to?: string }, zone: string): void {
  if (range.from && range.to && range.to < range.from) {
    throw Unprocessable('invalid_date_range', '`to` is before `from`.', [{ path: 'query/to', message: 'must not be before from', code: 'invalid_date_range' }]);
  }
  const bounds = (day: string) => {
    try {
      return localDateRange(day, day, zone);
    } catch {
      throw Unprocessable('invalid_date', 'The date is not a calendar date.', [{ path: range.from === day ? 'query/from' : 'query/to', message: 'is not a calendar date', code: 'invalid_date' }]);
    }
  };
  if (range.from) query.whereRaw(`${sql} >= ?`, [bounds(range.from).start]);
  if (range.to) query.whereRaw(`${sql} < ?`, [bounds(range.to).end]);
}

/** A stored instant's local day (`YYYY-MM-DD`). */
const localDay = (instant: Date | null | undefined, zone: string) => (instant ? toLocal(new Date(instant), zone).date : null);

// ---- reservations (Staff+) ----------------------------------------------------------------------------------

export function reservationsSheet(ctx: ExportContext, filters: ReservationFilters & { sort: keyof typeof RESERVATION_ORDERS }): ListSheet {
  const { knex } = ctx;
  const build = () =>
    filterReservations(
      knex('reservations as r')
        .join('show_events as e', 'e.id', 'r.show_event_id')
        .join('shows as s', 's.id', 'e.show_id')
        .join('offers as o', 'o.id', 'r.offer_id')
        .join('customers as c', 'c.id', 'r.customer_id')
        .leftJoin('venue_tables as t', 't.id', 'r.table_id')
        .select(
          'r.reference',
          'r.status',
          'r.hold_expires_at',
          'r.guest_count',
          'r.booking_path',
          'r.subtotal_vnd',
          'r.discount_vnd',
          'r.service_charge_vnd',
          'r.vat_vnd',
          'r.voucher_credit_vnd',
          'r.total_vnd',
          'r.promo_code',
          'r.voucher_code',
          'r.referral_code',
          'r.customer_note',
          'r.staff_notes',
          'r.contact_name',
          'r.contact_email',
          'r.contact_phone',
          'r.created_at',
          'r.confirmed_at',
          'r.checked_in_at',
          'r.cancelled_at',
          'e.starts_at as event_starts_at',
          's.title as show_title',
          'o.code as offer_code',
          'c.name as customer_name',
          'c.email as customer_email',
          'c.phone as customer_phone',
          't.code as table_code',
          paidSubquery(knex),
        ),
      filters,
      ctx.zone,
      ctx.now,
    );
  return {
    name: 'Reservations',
    rows: keysetBatches(knex, build, keysOf(RESERVATION_ORDERS[filters.sort])),
    columns: [
      text('Reference', (row) => row.reference, 12),
      text('Status', (row) => statusAt({ status: row.status as ReservationStatus, holdExpiresAt: row.hold_expires_at }, ctx.now), 12),
      typed('Event starts', 'datetime', 'event_starts_at'),
      text('Show', (row) => pickLocale(row.show_title as LocalizedText, ctx.defaultLocale, ctx.defaultLocale), 28),
      text('Offer', (row) => row.offer_code, 16),
      typed('Guests', 'integer', 'guest_count'),
      text('Table', (row) => row.table_code, 8),
      text('Customer', (row) => row.customer_name),
      text('Customer e-mail', (row) => row.customer_email, 28),
      text('Customer phone', (row) => row.customer_phone, 16),
      text('Booked as', (row) => row.contact_name),
      text('Booked e-mail', (row) => row.contact_email, 28),
      text('Booked phone', (row) => row.contact_phone, 16),
      typed('Subtotal (VND)', 'money', 'subtotal_vnd'),
      typed('Discount (VND)', 'money', 'discount_vnd'),
      typed('Service charge (VND)', 'money', 'service_charge_vnd'),
      typed('VAT (VND)', 'money', 'vat_vnd'),
      typed('Voucher credit (VND)', 'money', 'voucher_credit_vnd'),
      typed('Total (VND)', 'money', 'total_vnd'),
      typed('Paid (VND)', 'money', 'paid_vnd'),
      { header: 'Balance (VND)', type: 'money', value: (row) => Number(row.total_vnd) - Number(row.paid_vnd) },
      text('Promo code', (row) => row.promo_code, 14),
      text('Voucher code', (row) => row.voucher_code, 14),
      text('Referral code', (row) => row.referral_code, 14),
      text('Guest note', (row) => row.customer_note, 32),
      text('Staff notes', (row) => row.staff_notes, 32),
      typed('Booked at', 'datetime', 'created_at'),
      typed('Confirmed at', 'datetime', 'confirmed_at'),
      typed('Checked in at', 'datetime', 'checked_in_at'),
      typed('Cancelled at', 'datetime', 'cancelled_at'),
    ],
  };
}

// ---- payments and refunds (Admin+): by the day the money moved, for VNPay's statement ----------------------------

/**
 * The instant a payment's money moved: VNPay's own pay date when VNPay sent one (`vnp_PayDate`, what its statement
 * lists), else when it succeeded or failed here, else when it was started (still pending).
 */
const PAYMENT_MOVED_AT = 'coalesce(p.gateway_paid_at, p.succeeded_at, p.failed_at, p.created_at)';
/** A refund's: when it ended (VNPay answered, or staff handed the money back), else when it was requested. */
const REFUND_MOVED_AT = 'coalesce(f.completed_at, f.created_at)';

export interface MoneyFilters {
  from?: string;
  to?: string;
}

export function paymentsSheet(ctx: ExportContext, filters: MoneyFilters & { gateway?: string; status?: string }): ListSheet {
  const { knex } = ctx;
  const build = () => {
    const query = knex('payments as p')
      .leftJoin('reservations as r', 'r.id', 'p.reservation_id')
      .select(
        knex.raw(`${PAYMENT_MOVED_AT} as moved_at`),
        'p.gateway',
        'p.status',
        'p.amount_vnd',
        'p.refunded_vnd',
        'p.txn_ref',
        'p.gateway_transaction_id',
        'p.bank_code',
        'p.card_type',
        'p.gateway_response_code',
        'p.payable_kind',
        'p.recorded_by',
        'p.note',
        'p.created_at',
        'p.succeeded_at',
        'r.reference as reservation_reference',
      );
    localDays(query, PAYMENT_MOVED_AT, filters, ctx.zone);
    if (filters.gateway) query.where('p.gateway', filters.gateway);
    if (filters.status) query.where('p.status', filters.status);
    return query;
  };
  return {
    name: 'Payments',
    rows: keysetBatches(knex, build, [
      { sql: PAYMENT_MOVED_AT, order: 'asc' },
      { sql: 'p.id', order: 'asc' },
    ]),
    columns: [
      { header: 'Day', type: 'date', value: (row) => localDay(row.moved_at, ctx.zone) },
      typed('Moved at', 'datetime', 'moved_at'),
      text('Gateway', (row) => row.gateway, 14),
      text('Status', (row) => row.status, 18),
      typed('Amount (VND)', 'money', 'amount_vnd'),
      typed('Refunded (VND)', 'money', 'refunded_vnd'),
      { header: 'Net (VND)', type: 'money', value: (row) => (PAID_STATUSES.includes(row.status) || row.status === 'REFUNDED' ? Number(row.amount_vnd) - Number(row.refunded_vnd) : 0) },
      text('Transaction reference', (row) => row.txn_ref, 22),
      text('Gateway transaction', (row) => row.gateway_transaction_id, 18),
      text('Bank', (row) => row.bank_code, 10),
      text('Card type', (row) => row.card_type, 10),
      text('Response code', (row) => row.gateway_response_code, 10),
      text('For', (row) => row.payable_kind, 14),
      text('Reservation', (row) => row.reservation_reference, 12),
      text('Recorded by', (row) => row.recorded_by),
      text('Note', (row) => row.note, 32),
      typed('Started at', 'datetime', 'created_at'),
      typed('Succeeded at', 'datetime', 'succeeded_at'),
    ],
  };
}

export function refundsSheet(ctx: ExportContext, filters: MoneyFilters & { status?: string }): ListSheet {
  const { knex } = ctx;
  const build = () => {
    const query = knex('refunds as f')
      .join('payments as p', 'p.id', 'f.payment_id')
      .leftJoin('reservations as r', 'r.id', 'p.reservation_id')
      .select(
        knex.raw(`${REFUND_MOVED_AT} as moved_at`),
        'f.status',
        'f.amount_vnd',
        'f.reason',
        'f.failure_reason',
        'f.requested_by',
        'f.gateway_refund_id',
        'f.gateway_response_code',
        'f.created_at',
        'f.completed_at',
        'p.gateway',
        'p.txn_ref',
        'p.gateway_transaction_id',
        'r.reference as reservation_reference',
      );
    localDays(query, REFUND_MOVED_AT, filters, ctx.zone);
    if (filters.status) query.where('f.status', filters.status);
    return query;
  };
  return {
    name: 'Refunds',
    rows: keysetBatches(knex, build, [
      { sql: REFUND_MOVED_AT, order: 'asc' },
      { sql: 'f.id', order: 'asc' },
    ]),
    columns: [
      { header: 'Day', type: 'date', value: (row) => localDay(row.moved_at, ctx.zone) },
      typed('Moved at', 'datetime', 'moved_at'),
      text('Gateway', (row) => row.gateway, 14),
      text('Status', (row) => row.status, 12),
      typed('Amount (VND)', 'money', 'amount_vnd'),
      text('Payment transaction reference', (row) => row.txn_ref, 22),
      text('Payment gateway transaction', (row) => row.gateway_transaction_id, 18),
      text('Gateway refund', (row) => row.gateway_refund_id, 18),
      text('Response code', (row) => row.gateway_response_code, 10),
      text('Reservation', (row) => row.reservation_reference, 12),
      text('Reason', (row) => row.reason, 32),
      text('Failure', (row) => row.failure_reason, 32),
      text('Requested by', (row) => row.requested_by),
      typed('Requested at', 'datetime', 'created_at'),
      typed('Completed at', 'datetime', 'completed_at'),
    ],
  };
}

// ---- customers (Admin+) ------------------------------------------------------------------------------------------

/**
 * The CRM's records as the CRM shows them (the `Customer` schema's fields, nothing more): live customers unless
 * `includeDeleted`; the contact a guest typed on a booking is that booking's, not the record's, and is not here.
 * With each, how many reservations it has and when it last booked.
 */
export function customersSheet(ctx: ExportContext, filters: CustomerFilters): ListSheet {
  const { knex } = ctx;
  const bookings = () => knex('reservations as rr').whereRaw('rr.customer_id = c.id');
  const build = () =>
    filterCustomers(
      knex,
      knex('customers as c').select(
        'c.honorific',
        'c.name',
        'c.email',
        'c.phone',
        'c.locale',
        'c.is_deleted',
        'c.deleted_at',
        'c.created_at',
        'c.updated_at',
        bookings().count('*').as('bookings'),
        bookings().max('rr.created_at').as('last_booked_at'),
      ),
      filters,
    );
  return {
    name: 'Customers',
    rows: keysetBatches(knex, build, [
      { sql: 'c.created_at', order: 'desc' },
      { sql: 'c.id', order: 'asc' },
    ]),
    columns: [
      text('Name', (row) => row.name),
      text('Honorific', (row) => row.honorific, 10),
      text('E-mail', (row) => row.email, 30),
      text('Phone', (row) => row.phone, 16),
      text('Locale', (row) => row.locale, 8),
      typed('Bookings', 'integer', 'bookings'),
      typed('Last booked at', 'datetime', 'last_booked_at'),
      typed('Created at', 'datetime', 'created_at'),
      typed('Updated at', 'datetime', 'updated_at'),
      typed('Deleted', 'boolean', 'is_deleted'),
      typed('Deleted at', 'datetime', 'deleted_at'),
    ],
  };
}

// ---- the waiting list and inquiries (Staff+) ---------------------------------------------------------------------

export function waitlistSheet(ctx: ExportContext, filters: WaitlistFilters): ListSheet {
  const { knex } = ctx;
  const build = () =>
    filterEntries(
      knex('waitlist_entries as w')
        .join('show_events as e', 'e.id', 'w.show_event_id')
        .join('shows as s', 's.id', 'e.show_id')
        .leftJoin('reservations as r', 'r.id', 'w.reservation_id')
        .select(
          'w.name',
          'w.email',
          'w.phone',
          'w.locale',
          'w.guest_count',
          'w.status',
          'w.note',
          'w.created_at',
          'w.notified_at',
          'w.offer_expires_at',
          'w.converted_at',
          'w.expired_at',
          'e.starts_at as event_starts_at',
          's.title as show_title',
          'r.reference as reservation_reference',
        ),
      filters,
    );
  return {
    name: 'Waiting list',
    rows: keysetBatches(knex, build, [
      { sql: 'w.created_at', order: 'asc' },
      { sql: 'w.id', order: 'asc' },
    ]),
    columns: [
      typed('Joined at', 'datetime', 'created_at'),
      typed('Event starts', 'datetime', 'event_starts_at'),
      text('Show', (row) => pickLocale(row.show_title as LocalizedText, ctx.defaultLocale, ctx.defaultLocale), 28),
      text('Name', (row) => row.name),
      text('E-mail', (row) => row.email, 30),
      text('Phone', (row) => row.phone, 16),
      text('Locale', (row) => row.locale, 8),
      typed('Guests', 'integer', 'guest_count'),
      text('Status', (row) => row.status, 12),
      text('Note', (row) => row.note, 32),
      typed('Offered at', 'datetime', 'notified_at'),
      typed('Offer expires at', 'datetime', 'offer_expires_at'),
      typed('Booked at', 'datetime', 'converted_at'),
      text('Reservation', (row) => row.reservation_reference, 12),
      typed('Expired at', 'datetime', 'expired_at'),
    ],
  };
}

export function inquiriesSheet(ctx: ExportContext, filters: InquiryFilters): ListSheet {
  const { knex } = ctx;
  const build = () =>
    filterInquiries(
      knex('inquiries as i')
        .leftJoin('accounts as a', 'a.id', 'i.assignee_id')
        .select(
          'i.type',
          'i.status',
          'i.name',
          'i.email',
          'i.phone',
          'i.locale',
          // A `date` column as its text: a driver would read it as a Date at the server's midnight.
          knex.raw('i.preferred_date::text as preferred_date'),
          'i.guest_count',
          'i.message',
          'i.botcheck_verified',
          'i.created_at',
          'i.updated_at',
          'i.archived_at',
          'a.name as assignee_name',
        ),
      filters,
    );
  return {
    name: 'Inquiries',
    rows: keysetBatches(knex, build, [
      { sql: 'i.created_at', order: 'desc' },
      { sql: 'i.id', order: 'asc' },
    ]),
    columns: [
      typed('Received at', 'datetime', 'created_at'),
      text('Type', (row) => row.type, 16),
      text('Status', (row) => row.status, 14),
      text('Name', (row) => row.name),
      text('E-mail', (row) => row.email, 30),
      text('Phone', (row) => row.phone, 16),
      text('Locale', (row) => row.locale, 8),
      typed('Preferred date', 'date', 'preferred_date'),
      typed('Guests', 'integer', 'guest_count'),
      text('Message', (row) => row.message, 48),
      text('Assignee', (row) => row.assignee_name),
      typed('Bot check passed', 'boolean', 'botcheck_verified'),
      typed('Updated at', 'datetime', 'updated_at'),
      typed('Archived at', 'datetime', 'archived_at'),
    ],
  };
}
