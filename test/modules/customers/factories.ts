import { testDatabase } from '../../helpers/database.ts';

/** The customers module's rows. */

/** A customer (a live one unless `deleted`); answers its id. */
export async function buildCustomer(fields: { name?: string; email: string; phone?: string | null; deleted?: boolean }): Promise<string> {
  const { knex } = await testDatabase();
  const [row] = await knex('customers')
    .insert({
      name: fields.name ?? 'Guest',
      email: fields.email,
      email_normalized: fields.email.trim().toLowerCase(),
      phone: fields.phone ?? null,
      is_deleted: fields.deleted ?? false,
      deleted_at: fields.deleted ? new Date() : null,
    })
    .returning('id');
  return row.id;
}
