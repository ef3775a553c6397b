import type { Knex } from 'knex';
import type { ContactSource } from './inputs.ts';
import { normalizeEmail } from './inputs.ts';
import { Customer } from './models.ts';

/**
 * The guest's contact record: the `customers` row of an e-mail address, its e-mail history (`customer_emails`) and
 * the leads filed under it (`customer_leads`). Booking owns these tables (test/modules/tableOwners.spec.ts): every
 * hold, lead and waiting-list or inquiry join files its contact here, in its own transaction. The customers module
 * (the staff's CRM) reads them and changes them only through the functions below, exported by booking's door, so
 * every write of a customer row is in this file.
 */

/**
 * The customer of the e-mail's normalized form among live rows, inserted when there is none; staff's contact
 * updates an existing one (see `upsertCustomer`), a guest's leaves it; the e-mail recorded in its history. Its id.
 *
 * One statement (the upsert, the live row it found when it inserted nothing, and the history row), since a hold
 * runs it on every request. A guest's contact whose e-mail another transaction is inserting at that moment finds
 * nothing in that statement (`on conflict do nothing` waits for the other to commit, but the statement's snapshot
 * predates it): the live row is then read, and the history written, by statements of their own.
 */
export async function upsertCustomerByEmail(
  trx: Knex.Transaction,
  contact: { honorific: string | null; name: string; email: string; phone: string | null; locale: string | null },
  source: ContactSource,
): Promise<string> {
  const { email } = contact;
  const normalized = normalizeEmail(email);
  const values = [contact.honorific, contact.name, email, normalized, contact.phone, contact.locale];
  const onConflict =
    source === 'staff'
      ? `do update set
           name = excluded.name,
           email = excluded.email,
           honorific = coalesce(excluded.honorific, customers.honorific),
           phone = coalesce(excluded.phone, customers.phone),
           locale = coalesce(excluded.locale, customers.locale),
           updated_at = now()`
      : 'do nothing';
  const history = `on conflict (customer_id, email_normalized) do update set last_seen_at = now()${source === 'staff' ? ', email = excluded.email' : ''}`;
  const { rows } = (await trx.raw(
    `with upserted as (
       insert into customers (honorific, name, email, email_normalized, phone, locale)
       values (?, ?, ?, ?, ?, ?)
       on conflict (email_normalized) where not is_deleted ${onConflict}
       returning id
     ), customer as (
       select id from upserted
       union all
       select id from customers where email_normalized = ? and not is_deleted and not exists (select 1 from upserted)
       limit 1
     ), recorded as (
       insert into customer_emails (customer_id, email, email_normalized) select id, ?, ? from customer
       ${history}
     )
     select id from customer`,
    [...values, normalized, email, normalized],
  )) as { rows: Array<{ id: string }> };
  if (rows[0]) return rows[0].id;
  const customerId = (await trx('customers').where({ email_normalized: normalized, is_deleted: false }).first('id')).id as string;
  await trx.raw(`insert into customer_emails (customer_id, email, email_normalized) values (?, ?, ?) ${history}`, [customerId, email, normalized]);
  return customerId;
}

export interface LeadRecord {
  customerId: string;
  honorific: string | null;
  name: string;
  email: string;
  phone: string | null;
  locale: string | null;
  referenceHash: Buffer;
  showEventId: string | null;
  bookingPath: string | null;
  guestCount: number | null;
  experienceType: string | null;
  analyticsSessionId: string | null;
  analyticsDistinctId: string | null;
  analyticsLocalSessionId: string | null;
  expiresAt: Date;
}

/** Writes one lead. Called from captureCustomerLead only. */
export async function insertLead(trx: Knex.Transaction, lead: LeadRecord): Promise<void> {
  await trx('customer_leads').insert({
    customer_id: lead.customerId,
    honorific: lead.honorific,
    name: lead.name,
    email: lead.email,
    phone: lead.phone,
    locale: lead.locale,
    reference_hash: lead.referenceHash,
    show_event_id: lead.showEventId,
    booking_path: lead.bookingPath,
    guest_count: lead.guestCount,
    experience_type: lead.experienceType,
    analytics_session_id: lead.analyticsSessionId,
    analytics_distinct_id: lead.analyticsDistinctId,
    analytics_local_session_id: lead.analyticsLocalSessionId,
    expires_at: lead.expiresAt,
  });
}

/** The fields staff may change on a customer (the CRM's edit and adopt-contact). */
export type CustomerChanges = Partial<Pick<Customer, 'honorific' | 'name' | 'phone' | 'locale' | 'email' | 'emailNormalized' | 'updatedAt'>>;

/**
 * Changes a live customer's fields (the CRM's edit, adopt-contact, a merge's survivor); its new e-mail, if any,
 * goes into the e-mail history. The live-row unique index turns an e-mail clash into the caller's unique violation.
 */
export async function patchCustomer(trx: Knex.Transaction, id: string, changes: CustomerChanges): Promise<Customer> {
  const updated = await Customer.query(trx).patchAndFetchById(id, changes);
  if (changes.email !== undefined) await noteCustomerEmail(trx, id, updated.email, updated.emailNormalized);
  return updated;
}

/** Soft delete (the row, its reservations and e-mail history stay); a deleted row is left as it is. */
export async function softDeleteCustomer(trx: Knex.Transaction, id: string, now: Date): Promise<void> {
  await Customer.query(trx).patch({ isDeleted: true, deletedAt: now, updatedAt: now }).where({ id, is_deleted: false });
}

/** Puts `email` into the customer's e-mail history (first sighting now, or a later sighting of an address it had). */
async function noteCustomerEmail(trx: Knex.Transaction, customerId: string, email: string, emailNormalized: string): Promise<void> {
  await trx.raw(
    `insert into customer_emails (customer_id, email, email_normalized) values (?, ?, ?)
     on conflict (customer_id, email_normalized) do update set last_seen_at = now(), email = excluded.email`,
    [customerId, email, emailNormalized],
  );
}

/**
 * A merge's contact part (the customers module's mergeCustomers, in its transaction): the duplicate's leads move to
 * the survivor, and the survivor's e-mail history gains every address either had, with the earliest first sighting
 * and the latest last one.
 */
export async function moveCustomerContacts(trx: Knex.Transaction, fromCustomerId: string, toCustomerId: string): Promise<void> {
  await trx('customer_leads').where({ customer_id: fromCustomerId }).update({ customer_id: toCustomerId });
  await trx.raw(
    `insert into customer_emails (customer_id, email, email_normalized, first_seen_at, last_seen_at)
     select ?, email, email_normalized, first_seen_at, last_seen_at from customer_emails where customer_id = ?
     on conflict (customer_id, email_normalized) do update set
       first_seen_at = least(customer_emails.first_seen_at, excluded.first_seen_at),
       last_seen_at = greatest(customer_emails.last_seen_at, excluded.last_seen_at)`,
    [toCustomerId, fromCustomerId],
  );
}
