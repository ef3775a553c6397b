import type { Knex } from 'knex';

/**
 * Refund processing bookkeeping (issue 9, payments): a VNPay refund is sent by whoever claims it first (the
 * admin request inline, or the durable `payments.vnpay-refund` job), so the gateway is never asked twice at
 * once. `processing_until` is the claim (a crashed sender's claim lapses), `attempts` counts the sends.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('refunds', (t) => {
    t.timestamp('processing_until', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('refunds', (t) => {
    t.dropColumns('processing_until', 'attempts');
  });
}
