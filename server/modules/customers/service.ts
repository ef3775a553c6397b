import type { Knex } from 'knex';
import { Conflict, NotFound } from '../../platform/http/problem.ts';
import { isUniqueViolation } from '../accounts/index.ts';
import { normalizeEmail } from '../booking/index.ts';
import { likeContaining } from '../shows/index.ts';

/** A `customers` row as the database returns it. */
export interface CustomerRow {
  id: string;
  honorific: string | null;
  name: string;
  email: string;
  email_normalized: string;
  phone: string | null;
  locale: string | null;
  is_deleted: boolean;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface CustomerBookingRow {
  id: string;
  reference: string;
  status: string;
  event_slug: string | null;
  event_starts_at: Date;
  show_title: Record<string, string>;
  guest_count: number;
  total_vnd: number;
  contact_honorific: string | null;
  contact_name: string;
  contact_email: string;
  contact_phone: string | null;
  created_at: Date;
}

export interface CustomerEmailRow {
  email: string;
  first_seen_at: Date;
  last_seen_at: Date;
}

/** Booking history shown with a customer: the newest ones, at most this many. */
export const BOOKING_HISTORY_CAP = 50;

const NoSuchCustomer = () => NotFound('No such customer.');
export const EmailTaken = () => Conflict('email_taken', 'Another live customer has this e-mail address.');
export const CustomerDeleted = () => Conflict('customer_deleted', 'The customer was deleted; it cannot be changed.');

/** Customers newest first (then id); `q` in name, e-mail, phone or one of their reservation references. */
export async function listCustomers(
  knex: Knex,
  filters: { q?: string; includeDeleted: boolean; limit: number; offset: number },
): Promise<{ items: CustomerRow[]; total: number }> {
  const base = knex('customers as c');
  if (!filters.includeDeleted) base.where('c.is_deleted', false);
  const q = filters.q?.trim();
  if (q) {
    const pattern = likeContaining(q);
    base.where((w) =>
      w
        .where('c.name', 'ilike', pattern)
        .orWhere('c.email', 'ilike', pattern)
        .orWhere('c.phone', 'ilike', pattern)
        .orWhereExists((r) => r.select(knex.raw('1')).from('reservations as r').whereRaw('r.customer_id = c.id').andWhere('r.reference', 'ilike', pattern)),
    );
  }
  const [items, counted] = await Promise.all([
    base.clone().select('c.*').orderBy([{ column: 'c.created_at', order: 'desc' }, { column: 'c.id', order: 'asc' }]).limit(filters.limit).offset(filters.offset),
    base.clone().count({ n: '*' }).first(),
  ]);
  return { items: items as CustomerRow[], total: Number((counted as { n: string | number } | undefined)?.n ?? 0) };
}

export async function findCustomerOrFail(knex: Knex, id: string): Promise<CustomerRow> {
  const row = await knex('customers').where({ id }).first();
  if (!row) throw NoSuchCustomer();
  return row as CustomerRow;
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
      ) as Promise<CustomerBookingRow[]>,
    knex('reservations').where('customer_id', id).count({ n: '*' }).first(),
    knex('customer_emails').where('customer_id', id).orderBy([{ column: 'first_seen_at' }, { column: 'id' }]).select('email', 'first_seen_at', 'last_seen_at') as Promise<CustomerEmailRow[]>,
  ]);
  return { customer, bookings, bookingsTotal: Number((counted as { n: string | number } | undefined)?.n ?? 0), emails };
}

export interface CustomerPatch {
  honorific?: string | null;
  name?: string;
  email?: string;
  phone?: string | null;
  locale?: string | null;
}

/**
 * Changes contact fields in one transaction. A new e-mail is stored trimmed with its normalized key and goes
 * into the e-mail history; the live-row unique index turns a clash into 409 `email_taken`.
 */
export async function updateCustomer(knex: Knex, id: string, patch: CustomerPatch): Promise<CustomerRow> {
  try {
    return await knex.transaction(async (trx) => {
      const current = (await trx('customers').where({ id }).forUpdate().first()) as CustomerRow | undefined;
      if (!current) throw NoSuchCustomer();
      if (current.is_deleted) throw CustomerDeleted();
      const changes: Record<string, unknown> = {};
      if (patch.honorific !== undefined) changes.honorific = patch.honorific;
      if (patch.name !== undefined) changes.name = patch.name.trim();
      if (patch.phone !== undefined) changes.phone = patch.phone;
      if (patch.locale !== undefined) changes.locale = patch.locale;
      if (patch.email !== undefined) {
        const email = patch.email.trim();
        changes.email = email;
        changes.email_normalized = normalizeEmail(email);
      }
      const [updated] = (await trx('customers')
        .where({ id })
        .update({ ...changes, updated_at: trx.fn.now() })
        .returning('*')) as CustomerRow[];
      if (patch.email !== undefined) {
        await trx.raw(
          `insert into customer_emails (customer_id, email, email_normalized) values (?, ?, ?)
           on conflict (customer_id, email_normalized) do update set last_seen_at = now(), email = excluded.email`,
          [id, updated.email, updated.email_normalized],
        );
      }
      return updated;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw EmailTaken();
    throw err;
  }
}

/** Soft delete: the row, its reservations and e-mail history stay; deleting again changes nothing. */
export async function deleteCustomer(knex: Knex, id: string): Promise<void> {
  const customer = await findCustomerOrFail(knex, id);
  if (customer.is_deleted) return;
  await knex('customers').where({ id, is_deleted: false }).update({ is_deleted: true, deleted_at: knex.fn.now(), updated_at: knex.fn.now() });
}
