import type { Knex } from 'knex';

/**
 * Analytics, visits and ad conversions (issue 11).
 *
 * - `visit_counters` (spec §2.3, §8.2 item 2): one row per bucket, `DAY` (`2026-11-23`) and `WEEK` (ISO week,
 *   `2026-W48`), local to VENUE_TIMEZONE. A visit is `insert … on conflict (bucket_type, bucket_key) do update
 *   set visit_count = visit_count + 1` for each bucket, in one transaction: the row lock of the conflicting row
 *   serializes concurrent increments, so none is lost. Nothing about the visitor is stored, here or anywhere.
 * - `meta_capi_outbox`: what one Meta Conversions API event needs (hashed user data, the client address and user
 *   agent Meta asks for), held only until the send job is done (sent, refused, or out of attempts), then deleted.
 *   The job's own payload (pg-boss) carries only this row's id, so pg-boss's archive keeps no user data either.
 * - `meta_capi_events`: the audit of every send attempt: event name, `event_id`, source, outcome, HTTP status,
 *   Meta's `fbtrace_id` and `events_received`, error message, attempt, times. No user data, hashed or not.
 *
 * Indexes for the aggregates (server/modules/analytics/service.ts), measured by `BENCH_ONLY=analytics npm run bench`
 * (test/bench/analyticsSeed.ts: 100,000 customers, 500,000 reservations over two years, ~400,000 payments;
 * PostgreSQL 16). Each aggregate runs in one read-only transaction with `work_mem` 64 MB (the 4 MB default made the
 * payments hash spill to disk: "Batches: 4", temp files).
 *
 * - `reservations_analytics_index (created_at) include (id, status, guest_count, confirmed_at, checked_in_at,
 *   show_event_id, customer_id, booking_path)`: every aggregate starts from the reservations created in the range;
 *   with this index they are an Index Only Scan (30 days ≈ 20,000 rows in ~10 ms) instead of a Bitmap Heap Scan
 *   over 11,000 heap pages of the 115 MB table (~165 ms), and for a year a narrow index range instead of a Seq Scan.
 * - `payments_analytics_index (reservation_id) include (status, amount_vnd, refunded_vnd, gateway)`: the money of
 *   those reservations is one join on their paid payments, an Index Only Scan (nested loop for short ranges, hash
 *   join for long ones). Counts are taken from the reservations alone and money from that join, never a
 *   per-reservation pre-aggregate joined back: the first version did, and PostgreSQL hashed all 400,000 payments
 *   against a materialized CTE (~820 ms for 30 days, 9 s for two years); now summary is ~110 ms for 30 days.
 *   Refunded money is `payments.refunded_vnd` (the sum of the payment's SUCCEEDED refunds), so refunds are not
 *   scanned.
 * - Customer intelligence deduplicates people by `customers.email_normalized` over every row, deleted ones included
 *   (a soft-deleted customer and the live one with the same address are one person). Live addresses are unique
 *   (the partial `customers_email_live_unique`), so a shared address always has a deleted row: the service first
 *   reads the rows holding a deleted row's address (Seq Scan filtered on `is_deleted`, then
 *   `customers_email_normalized_index`, which covers all rows; ~17 ms for 100,000 customers) and maps each to one
 *   person id; every other row is a person of its own, so the year's bookings are grouped by `customer_id` (uuid)
 *   rather than by e-mail text (three times slower).
 * - "Returning" asks, per active person, whether a confirmed booking exists before the range:
 *   `reservations_customer_confirmed_index (customer_id, created_at) where confirmed_at is not null` gives the
 *   distinct earlier customers in order (Index Only Scan → Unique, ~40 ms for 200,000 entries), hash-joined to the
 *   active ones.
 * - The funnel counts leads captured in the range: `customer_leads_created_at_index`.
 * - `reservations_lead_id_index`: the foreign key `reservations.lead_id` (ON DELETE SET NULL) had no index, so
 *   deleting a lead scanned every reservation.
 *
 * Plans (EXPLAIN ANALYZE on the bench data): summary, 30 days — Index Only Scan using reservations_analytics_index
 * → HashAggregate by (local day, status); paid money — Index Only Scan on reservations_analytics_index, Nested
 * Loop / Hash Join with Index Only Scan using payments_analytics_index → HashAggregate over grouping sets (day),
 * (gateway). Customer intelligence, a year (three statements at once on PostgreSQL, one exported snapshot; 568 ms in
 * all) — people: Index Only Scan on reservations_analytics_index → HashAggregate per customer (78,000), Hash Right
 * Join with the Unique earlier customers (~120 ms); per show and booking path: the same scan ⋈ show_events →
 * GroupAggregate over grouping sets (~320 ms); money: the same scan ⋈ show_events ⋈ the paid payments created since
 * the range began (payments_created_at_index) → HashAggregate over grouping sets (~270 ms). JIT off.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('visit_counters', (t) => {
    t.text('bucket_type').notNullable();
    t.text('bucket_key').notNullable();
    t.bigInteger('visit_count').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.primary(['bucket_type', 'bucket_key']);
    t.check("bucket_type in ('DAY', 'WEEK')", [], 'visit_counters_bucket_type_check');
    t.check(
      "(bucket_type = 'DAY' and bucket_key ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$') or (bucket_type = 'WEEK' and bucket_key ~ '^[0-9]{4}-W[0-9]{2}$')",
      [],
      'visit_counters_bucket_key_check',
    );
    t.check('visit_count >= 0', [], 'visit_counters_count_check');
  });

  await knex.schema.createTable('meta_capi_outbox', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('event_name').notNullable();
    t.text('event_id').notNullable();
    t.text('source').notNullable();
    // The one event object Meta receives (`data[0]`): user_data hashed as Meta specifies, plus address and agent.
    t.jsonb('payload').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check("source in ('BROWSER', 'SERVER')", [], 'meta_capi_outbox_source_check');
  });

  await knex.schema.createTable('meta_capi_events', (t) => {
    t.bigIncrements('id').primary();
    t.text('event_name').notNullable();
    t.text('event_id').notNullable();
    t.text('source').notNullable();
    // SENT (Meta accepted it), RETRYING (failed, another attempt follows), FAILED (refused, or no attempt left).
    t.text('status').notNullable();
    t.integer('http_status');
    t.text('fbtrace_id');
    t.integer('events_received');
    t.text('error_message');
    t.integer('attempt').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.timestamp('finished_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at', 'id']);
    t.index(['event_name', 'created_at']);
    t.index(['event_id']);
    t.check("source in ('BROWSER', 'SERVER')", [], 'meta_capi_events_source_check');
    t.check("status in ('SENT', 'RETRYING', 'FAILED')", [], 'meta_capi_events_status_check');
    t.check('attempt >= 1', [], 'meta_capi_events_attempt_check');
  });

  await knex.raw('create index customers_email_normalized_index on customers (email_normalized)');
  await knex.raw('create index reservations_customer_confirmed_index on reservations (customer_id, created_at) where confirmed_at is not null');
  await knex.raw('create index customer_leads_created_at_index on customer_leads (created_at)');
  await knex.raw(
    'create index reservations_analytics_index on reservations (created_at) include (id, status, guest_count, confirmed_at, checked_in_at, show_event_id, customer_id, booking_path)',
  );
  await knex.raw('create index payments_analytics_index on payments (reservation_id) include (status, amount_vnd, refunded_vnd, gateway)');
  // `reservations.lead_id` references customer_leads ON DELETE SET NULL without an index: every deleted lead made
  // PostgreSQL scan all reservations (the bench's clean-up of 200,000 leads ran for many minutes). Partial: most
  // reservations have no lead.
  await knex.raw('create index reservations_lead_id_index on reservations (lead_id) where lead_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index reservations_lead_id_index');
  await knex.raw('drop index payments_analytics_index');
  await knex.raw('drop index reservations_analytics_index');
  await knex.raw('drop index customer_leads_created_at_index');
  await knex.raw('drop index reservations_customer_confirmed_index');
  await knex.raw('drop index customers_email_normalized_index');
  for (const table of ['meta_capi_events', 'meta_capi_outbox', 'visit_counters']) await knex.schema.dropTable(table);
}
