import type { Knex } from 'knex';

/**
 * Passkeys (WebAuthn credentials) of dashboard accounts (spec §2.2: a login account's e-mail/password/passkey
 * identity), and the server-side WebAuthn challenges: each is single-use (consumed by deleting its row) and
 * short-lived (`expires_at`, WEBAUTHN_CHALLENGE_TTL_SECONDS). A deleted account takes its passkeys and its
 * pending challenges with it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('passkeys', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    // The credential id (base64url) the authenticator names itself by: unique across every account.
    t.text('credential_id').notNullable().unique();
    // The COSE public key, base64url.
    t.text('public_key').notNullable();
    // The authenticator's signature counter (an unsigned 32-bit integer; 0 when the authenticator keeps none).
    t.bigInteger('counter').notNullable().defaultTo(0);
    t.jsonb('transports').notNullable().defaultTo('[]');
    t.text('device_type').notNullable();
    t.boolean('backed_up').notNullable().defaultTo(false);
    t.text('aaguid');
    t.text('label').notNullable();
    t.timestamp('last_used_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['account_id']);
    t.check("device_type in ('singleDevice', 'multiDevice')", [], 'passkeys_device_type_check');
    t.check('counter >= 0', [], 'passkeys_counter_check');
  });

  await knex.schema.createTable('webauthn_challenges', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('challenge').notNullable().unique();
    t.text('ceremony').notNullable();
    // The account registering a passkey (registration); null for a sign-in, whose account is not known yet.
    t.uuid('account_id').references('accounts.id').onDelete('CASCADE');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['expires_at']);
    t.check("ceremony in ('registration', 'authentication')", [], 'webauthn_challenges_ceremony_check');
    t.check("(ceremony = 'registration') = (account_id is not null)", [], 'webauthn_challenges_account_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webauthn_challenges');
  await knex.schema.dropTable('passkeys');
}
