import type { Knex } from 'knex';

/**
 * The guest's messages (issue 21 §2). The reminder and the hold-expired message are written by jobs, which run at
 * least once; each checks the ledger under the reservation's row lock before writing, and this index makes "one
 * per reservation" a property of the data as well (a second row cannot be committed).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `create unique index email_messages_once_per_reservation on email_messages (reservation_id, template)
      where reservation_id is not null and template in ('reservation-reminder', 'hold-expired')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index email_messages_once_per_reservation');
}
