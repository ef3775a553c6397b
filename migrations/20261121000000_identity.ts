import type { Knex } from 'knex';

/** Accounts, organizations, memberships, sessions and API keys; and the one canonical organization. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('accounts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('email').notNullable().unique();
    t.text('name').notNullable();
    t.text('password_hash');
    t.text('role').notNullable().defaultTo('USER');
    t.boolean('banned').notNullable().defaultTo(false);
    t.text('ban_reason');
    t.timestamp('ban_expires_at', { useTz: true });
    t.timestamps(true, true);
    t.check("role in ('SUPERUSER', 'USER')", [], 'accounts_role_check');
    t.check('email = lower(email)', [], 'accounts_email_lower_check');
  });

  await knex.schema.createTable('organizations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.text('slug').notNullable().unique();
    t.boolean('canonical').notNullable().defaultTo(false);
    t.timestamps(true, true);
  });
  await knex.raw('create unique index organizations_one_canonical on organizations (canonical) where canonical');

  await knex.schema.createTable('organization_members', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('role').notNullable();
    t.timestamps(true, true);
    t.unique(['organization_id', 'account_id']);
    t.index(['account_id']);
    t.check("role in ('owner', 'admin', 'member', 'kitchen_pos')", [], 'organization_members_role_check');
  });

  await knex.schema.createTable('sessions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('token_hash').notNullable().unique();
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.uuid('active_organization_id').references('organizations.id').onDelete('SET NULL');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.text('ip');
    t.text('user_agent');
    t.timestamps(true, true);
    t.index(['account_id']);
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.text('prefix').notNullable();
    t.text('start').notNullable();
    t.text('key_hash').notNullable().unique();
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.timestamp('expires_at', { useTz: true });
    t.jsonb('permissions').notNullable().defaultTo('{}');
    t.bigInteger('request_count').notNullable().defaultTo(0);
    t.timestamp('last_used_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['account_id']);
  });

  await knex('organizations').insert({ name: 'Venue', slug: 'venue', canonical: true });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_keys');
  await knex.schema.dropTable('sessions');
  await knex.schema.dropTable('organization_members');
  await knex.schema.dropTable('organizations');
  await knex.schema.dropTable('accounts');
}
