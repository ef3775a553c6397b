import type { Knex } from 'knex';
import { Conflict, NotFound } from '../../platform/http/problem.ts';
import { publish, type DomainContext } from '../../domain/events.ts';
import { Customer, CustomerEmail, moveCustomerContacts, moveCustomerReservations } from '../booking/index.ts';
import { moveCustomerMessages } from '../email/index.ts';
import { likeContaining } from '../shows/index.ts';

/** One reservation of a customer as its history shows it (reservations, events and shows joined). */
export interface CustomerBooking {
  id: string;
  reference: string;
  status: string;
  eventSlug: string | null;
  eventStartsAt: Date;
  showTitle: Record<string, string>;
  guestCount: number;
  totalVnd: number;
  contactHonorific: string | null;
  contactName: string;
  contactEmail: string;
  contactPhone: string | null;
  createdAt: Date;
}

/** Booking history shown with a customer: the newest ones, at most this many. */
export const BOOKING_HISTORY_CAP = 50;

export const NoSuchCustomer = () => NotFound('No such customer.');
export const EmailTaken = () => Conflict('email_taken', 'Another live customer has this e-mail address.');
export const CustomerDeleted = () => Conflict('customer_deleted', 'The customer was deleted; it cannot be changed.');

export interface CustomerFilters {
  q?: string;
  includeDeleted: boolean;
}

/**
 * Narrows `query` (over `customers as c`) to the CRM list's customers: live ones unless `includeDeleted`; `q` in
 * name, e-mail, phone or one of their reservation references. Shared by the list and the exports module's
 * customers export (through this module's door), so both hold the same people.
 */
export function filterCustomers(knex: Knex, query: Knex.QueryBuilder, filters: CustomerFilters): Knex.QueryBuilder {
  if (!filters.includeDeleted) query.where('c.is_deleted', false);
  const q = filters.q?.trim();
  if (q) {
    const pattern = likeContaining(q);
    query.where((w) =>
      w
        .where('c.name', 'ilike', pattern)
        .orWhere('c.email', 'ilike', pattern)
        .orWhere('c.phone', 'ilike', pattern)
        .orWhereExists(knex('reservations as r').select(knex.raw('1')).whereRaw('r.customer_id = c.id').andWhere('r.reference', 'ilike', pattern)),
    );
  }
  return query;
}

/** Customers newest first (then id), as `filterCustomers` chooses them. */
export async function listCustomers(knex: Knex, filters: CustomerFilters & { limit: number; offset: number }): Promise<{ items: Customer[]; total: number }> {
  const matching = () => filterCustomers(knex, knex('customers as c'), filters);
  const [rows, counted] = await Promise.all([
    matching()
      .select('c.*')
      .orderBy([{ column: 'c.created_at', order: 'desc' }, { column: 'c.id', order: 'asc' }])
      .limit(filters.limit)
      .offset(filters.offset),
    matching().count({ n: '*' }).first(),
  ]);
  return { items: rows.map((row: Record<string, unknown>) => Customer.fromDatabaseJson(row)), total: Number((counted as { n: string | number } | undefined)?.n ?? 0) };
}

export async function findCustomerOrFail(knex: Knex, id: string): Promise<Customer> {
  const customer = await Customer.query(knex).findById(id);
  if (!customer) throw NoSuchCustomer();
  return customer;
}

/** The customer row locked for the rest of the transaction (404 when there is none). */
export async function lockCustomer(trx: Knex.Transaction, id: string): Promise<Customer> {
  const customer = await Customer.query(trx).findById(id).forUpdate();
  if (!customer) throw NoSuchCustomer();
  return customer;
}

/** The customer, its newest reservations (capped) with their total count, and every address it had. */
export async function customerDetail(knex: Knex, id: string) {
  const customer = await findCustomerOrFail(knex, id);
  const [bookings, counted, emails] = await Promise.all([
    knex('reservations as r')
      .join('show_events as e', 'e.id', 'r.show_event_id')
      .join('shows as s', 's.id', 'e.show_id')
      .where('r.customer_id', id)
      .orderBy([{ column: 'r.created_at', order: 'desc' }, { column: 'r.id', order: 'asc' }])
      .limit(BOOKING_HISTORY_CAP)
      .select(
        'r.id',
        'r.reference',
        'r.status',
        'e.slug as event_slug',
        'e.starts_at as event_starts_at',
        's.title as show_title',
        'r.guest_count',
        'r.total_vnd',
        'r.contact_honorific',
        'r.contact_name',
        'r.contact_email',
        'r.contact_phone',
        'r.created_at',
      ),
    knex('reservations').where('customer_id', id).count({ n: '*' }).first(),
    CustomerEmail.query(knex).where('customer_id', id).orderBy([{ column: 'first_seen_at' }, { column: 'id' }]).select('email', 'first_seen_at', 'last_seen_at'),
  ]);
  return {
    customer,
    bookings: bookings.map(
      (row): CustomerBooking => ({
        id: row.id,
        reference: row.reference,
        status: row.status,
        eventSlug: row.event_slug,
        eventStartsAt: row.event_starts_at,
        showTitle: row.show_title,
        guestCount: row.guest_count,
        totalVnd: Number(row.total_vnd),
        contactHonorific: row.contact_honorific,
        contactName: row.contact_name,
        contactEmail: row.contact_email,
        contactPhone: row.contact_phone,
        createdAt: row.created_at,
      }),
    ),
    bookingsTotal: Number((counted as { n: string | number } | undefined)?.n ?? 0),
    emails,
  };
}

/** The contact a reservation was booked with, and whose it is (`undefined` when there is no such reservation). */
export async function bookedContactOf(
  trx: Knex.Transaction,
  reservationId: string,
): Promise<{ customerId: string | null; honorific: string | null; name: string; phone: string | null } | undefined> {
  const row = await trx('reservations').where({ id: reservationId }).first('customer_id', 'contact_honorific', 'contact_name', 'contact_phone');
  return row && { customerId: row.customer_id, honorific: row.contact_honorific, name: row.contact_name, phone: row.contact_phone };
}

/** Whether `reservationId` is one of the customer's reservations. */
export async function isCustomersReservation(trx: Knex.Transaction, customerId: string, reservationId: string): Promise<boolean> {
  return Boolean(await trx('reservations').where({ id: reservationId, customer_id: customerId }).first('id'));
}

/**
 * A merge's set-based part (called only from the merge command, in its transaction): every row the duplicate owns
 * moves to the survivor — its reservations, its leads and its e-mail history (booking's: the survivor's history
 * gains every address either had), then (`customer.merged`'s in-transaction subscribers) its waiting-list entries and
 * inquiries, then its e-mail ledger (email's). Each table is written by its own module (test/modules/tableOwners.spec.ts).
 */
export async function moveCustomerRows(ctx: DomainContext, fromCustomerId: string, toCustomerId: string): Promise<void> {
  const { trx } = ctx;
  await moveCustomerReservations(trx, fromCustomerId, toCustomerId);
  await moveCustomerContacts(trx, fromCustomerId, toCustomerId);
  await publish(ctx, 'customer.merged', { fromCustomerId, toCustomerId });
  await moveCustomerMessages(trx, fromCustomerId, toCustomerId);
}
