import type { Knex } from 'knex';

/**
 * Webhooks to the venue's other systems (issue 36 §3; server/modules/webhooks):
 * - `webhook_endpoints`: a URL an administrator registered, the event types it wants, its signing secret sealed
 *   (platform sealing, purpose `webhook-secrets`) and, for the overlap after a rotation, the previous one with the
 *   time it stops signing; `failing_since` is when its current run of failed attempts began (null after a success),
 *   which the disabling rule reads.
 * - `webhook_messages`: the outbox, one row per endpoint and event, written in the event's own transaction with its
 *   delivery job; `seq` orders the messages of one `ordering_key` (a reservation, an inquiry, a waiting-list entry)
 *   per endpoint; `body` is the exact JSON every attempt sends.
 * - `webhook_attempts`: one row per attempt (status code, latency, an excerpt of the answer of at most 1 KiB, error).
 * Deleting an endpoint deletes its messages and their attempts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('url').notNullable();
    t.text('description');
    t.jsonb('event_types').notNullable().defaultTo('[]');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('secret_sealed').notNullable();
    t.text('previous_secret_sealed');
    t.timestamp('previous_secret_expires_at', { useTz: true });
    t.timestamp('secret_rotated_at', { useTz: true });
    t.timestamp('failing_since', { useTz: true });
    t.timestamp('disabled_at', { useTz: true });
    t.text('disabled_reason');
    t.text('created_by');
    t.timestamps(true, true);
    t.check("disabled_reason in ('MANUAL', 'FAILING')", [], 'webhook_endpoints_disabled_reason_check');
    t.check('enabled = (disabled_at is null)', [], 'webhook_endpoints_disabled_check');
    t.check("jsonb_typeof(event_types) = 'array'", [], 'webhook_endpoints_event_types_check');
  });

  await knex.schema.createTable('webhook_messages', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.specificType('seq', 'bigint generated always as identity').notNullable().unique();
    t.uuid('endpoint_id').notNullable().references('webhook_endpoints.id').onDelete('CASCADE');
    t.text('event_type').notNullable();
    t.text('ordering_key').notNullable();
    // The exact JSON body every attempt sends (text, not jsonb: jsonb would reorder its keys).
    t.text('body').notNullable();
    t.text('status').notNullable().defaultTo('PENDING');
    // Every attempt ever made; `round_attempts` counts those since the message was last queued (the retry schedule's).
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('round_attempts').notNullable().defaultTo(0);
    // The next attempt is a manual redelivery.
    t.boolean('manual').notNullable().defaultTo(false);
    t.timestamp('next_attempt_at', { useTz: true });
    // While an attempt is in flight: another run of the job for this message waits until then.
    t.timestamp('claimed_until', { useTz: true });
    t.timestamp('last_attempt_at', { useTz: true });
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('failed_at', { useTz: true });
    t.text('failure_reason');
    t.timestamps(true, true);
    t.index(['endpoint_id', 'created_at']);
    t.index(['created_at']);
    t.check("status in ('PENDING', 'SUCCEEDED', 'FAILED')", [], 'webhook_messages_status_check');
    t.check("failure_reason in ('retries_exhausted', 'endpoint_disabled')", [], 'webhook_messages_failure_reason_check');
    t.check('attempts >= round_attempts and round_attempts >= 0', [], 'webhook_messages_attempts_check');
  });
  // The pending messages of one subject at one endpoint, in order: what a delivery checks before it sends.
  await knex.raw("create index webhook_messages_pending_idx on webhook_messages (endpoint_id, ordering_key, seq) where status = 'PENDING'");

  await knex.schema.createTable('webhook_attempts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('message_id').notNullable().references('webhook_messages.id').onDelete('CASCADE');
    t.integer('attempt').notNullable();
    t.boolean('manual').notNullable().defaultTo(false);
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.integer('latency_ms').notNullable();
    t.integer('status_code');
    t.text('outcome').notNullable();
    t.text('error');
    t.text('response_excerpt');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['message_id', 'attempt']);
    t.check("outcome in ('SUCCEEDED', 'FAILED')", [], 'webhook_attempts_outcome_check');
    t.check('latency_ms >= 0', [], 'webhook_attempts_latency_check');
    t.check('char_length(response_excerpt) <= 1024', [], 'webhook_attempts_excerpt_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_attempts');
  await knex.schema.dropTable('webhook_messages');
  await knex.schema.dropTable('webhook_endpoints');
}
