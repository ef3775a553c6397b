import type { Knex } from 'knex';
import { NotFound, Unprocessable } from '../../../platform/http/problem.ts';
import { CustomerDeleted, type CustomerRow } from '../service.ts';

/** The tables whose rows belong to a customer (`customer_id`), moved by a merge. */
const OWNED = ['reservations', 'customer_leads', 'waitlist_entries', 'inquiries', 'email_messages'] as const;

/**
 * One person filed under two customers becomes one: in one transaction (both rows locked, in id order so two
 * merges never wait on each other in a cycle) the duplicate's bookings, leads, waiting-list entries, inquiries,
 * ledger rows and e-mail history move to `customerId`, and the duplicate is soft-deleted (its row stays for
 * audit). The surviving record's own fields are unchanged.
 */
export async function mergeCustomers(knex: Knex, customerId: string, duplicateId: string): Promise<CustomerRow> {
  if (customerId === duplicateId) {
    throw Unprocessable('same_customer', 'A customer cannot be merged into itself.', [
      { path: 'body/duplicateCustomerId', message: 'is the customer itself', code: 'same_customer' },
    ]);
  }
  return knex.transaction(async (trx) => {
    const rows = (await trx('customers').whereIn('id', [customerId, duplicateId]).orderBy('id').forUpdate().select('*')) as CustomerRow[];
    const survivor = rows.find((row) => row.id === customerId);
    const duplicate = rows.find((row) => row.id === duplicateId);
    if (!survivor || !duplicate) throw NotFound('No such customer.');
    if (survivor.is_deleted || duplicate.is_deleted) throw CustomerDeleted();
    for (const table of OWNED) await trx(table).where({ customer_id: duplicateId }).update({ customer_id: customerId });
    // E-mail history: every address either had, with the earliest first sighting and the latest last one.
    await trx.raw(
      `insert into customer_emails (customer_id, email, email_normalized, first_seen_at, last_seen_at)
       select ?, email, email_normalized, first_seen_at, last_seen_at from customer_emails where customer_id = ?
       on conflict (customer_id, email_normalized) do update set
         first_seen_at = least(customer_emails.first_seen_at, excluded.first_seen_at),
         last_seen_at = greatest(customer_emails.last_seen_at, excluded.last_seen_at)`,
      [customerId, duplicateId],
    );
    await trx('customers').where({ id: duplicateId }).update({ is_deleted: true, deleted_at: trx.fn.now(), updated_at: trx.fn.now() });
    const [updated] = (await trx('customers').where({ id: customerId }).update({ updated_at: trx.fn.now() }).returning('*')) as CustomerRow[];
    return updated;
  });
}
