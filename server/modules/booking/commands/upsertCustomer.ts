import type { Knex } from 'knex';
import type { Contact, ContactSource, CustomerContact } from '../inputs.ts';
import { upsertCustomerByEmail } from '../contacts.ts';

/**
 * The live CRM customer of the contact's normalized e-mail. None yet: one is created with the contact. One
 * already: a guest's contact leaves it exactly as it is (issue 21 §1: a stranger who knows an address must
 * neither read nor overwrite what is stored under it); staff's contact updates it (the latest wins; an omitted
 * honorific, phone or locale keeps the stored one). A soft-deleted customer is never touched: the partial unique
 * index covers live rows only, so the insert makes a new live customer. Runs in the caller's transaction.
 */
export async function upsertCustomer(trx: Knex.Transaction, contact: Contact, source: ContactSource = 'guest'): Promise<string> {
  return upsertCustomerByEmail(
    trx,
    { honorific: contact.honorific ?? null, name: contact.name.trim(), email: contact.email.trim(), phone: contact.phone ?? null, locale: contact.locale ?? null },
    source,
  );
}

/** The snapshot of `contact` a row keeps (trimmed as stored), with the customer it belongs to. */
export async function bookContact(trx: Knex.Transaction, contact: Contact, source: ContactSource): Promise<CustomerContact> {
  const id = await upsertCustomer(trx, contact, source);
  return { id, honorific: contact.honorific ?? null, name: contact.name.trim(), email: contact.email.trim(), phone: contact.phone ?? null };
}
