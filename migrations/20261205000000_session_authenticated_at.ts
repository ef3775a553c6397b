import type { Knex } from 'knex';

/**
 * When a session last proved who its account is (issue 32 §4.2): `sessions.authenticated_at`, set by a password
 * sign-in and by a passkey sign-in (each opens its session). Adding a passkey needs a recent one (10 minutes, as
 * GitHub's and Google's "sudo mode" ask): a bare session cookie, stolen or left on a shared machine, must not be
 * able to add a credential that outlives it. Existing sessions were opened by a sign-in: theirs is their creation.
 * The default is the row's creation too (a session is only ever opened by a sign-in; auth's openSession sets it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.timestamp('authenticated_at', { useTz: true });
  });
  await knex.raw('update sessions set authenticated_at = created_at');
  await knex.raw('alter table sessions alter column authenticated_at set not null, alter column authenticated_at set default now()');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.dropColumn('authenticated_at');
  });
}
