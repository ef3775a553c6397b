import type { Knex } from 'knex';

/**
 * Counters of server/platform/rateLimit.ts when the server runs on PostgreSQL (shared by every process); the
 * layout rate-limiter-flexible's RateLimiterPostgres reads and writes (`key`, `points`, `expire` in epoch ms),
 * with `key` as text. Created here rather than by the library, so both databases have the same schema.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limits', (t) => {
    t.text('key').primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire');
  });
  await knex.raw('create index rate_limits_expire on rate_limits (expire)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limits');
}
