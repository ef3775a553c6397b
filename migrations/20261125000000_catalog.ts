import type { Knex } from 'knex';

/**
 * The venue catalog (DOMAIN.md "Catalog"): shows, their events, offers and the fulfillment items they include,
 * the floor's tables and the one-row commercial setup. Per-locale text is a jsonb object keyed by locale
 * (`{"en": "…", "vi": "…"}`); presenters fall back to the default locale for a missing one. Every time is a
 * `timestamptz`. Nothing here is hard-deleted except tables (their references are `ON DELETE SET NULL` where
 * later tables point at them).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('shows', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('code').notNullable().unique();
    t.text('slug').notNullable().unique();
    t.text('status').notNullable().defaultTo('DRAFT');
    t.boolean('canonical').notNullable().defaultTo(false);
    t.jsonb('title').notNullable();
    t.jsonb('summary').notNullable().defaultTo('{}');
    t.jsonb('description').notNullable().defaultTo('{}');
    t.integer('duration_minutes').notNullable();
    t.jsonb('image_blob_ids').notNullable().defaultTo('[]');
    t.integer('sort_order').notNullable().defaultTo(0);
    t.timestamp('published_at', { useTz: true });
    t.timestamp('archived_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['status', 'sort_order']);
    t.check("status in ('DRAFT', 'PUBLISHED', 'ARCHIVED')", [], 'shows_status_check');
    t.check("code ~ '^[A-Z0-9]{2,12}$'", [], 'shows_code_check');
    t.check("slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'", [], 'shows_slug_check');
    t.check('duration_minutes between 1 and 1440', [], 'shows_duration_check');
    t.check("jsonb_typeof(title) = 'object'", [], 'shows_title_check');
  });

  await knex.schema.createTable('show_events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('show_id').notNullable().references('shows.id').onDelete('RESTRICT');
    // Nullable for rows written before slugs existed: POST /api/sudo/backfill-event-slugs fills them.
    t.text('slug').unique();
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.timestamp('doors_at', { useTz: true });
    t.integer('capacity').notNullable();
    t.boolean('sales_open').notNullable().defaultTo(false);
    t.text('status').notNullable().defaultTo('SCHEDULED');
    t.text('staff_notes');
    t.timestamp('cancelled_at', { useTz: true });
    t.text('cancellation_reason');
    t.timestamp('completed_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['starts_at']);
    t.index(['show_id', 'starts_at']);
    t.check("status in ('SCHEDULED', 'CANCELLED', 'COMPLETED')", [], 'show_events_status_check');
    t.check('capacity between 1 and 100000', [], 'show_events_capacity_check');
    t.check('doors_at is null or doors_at <= starts_at', [], 'show_events_doors_check');
  });

  await knex.schema.createTable('fulfillment_items', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('code').notNullable().unique();
    t.jsonb('name').notNullable();
    t.text('kind').notNullable();
    t.jsonb('dietary_tags').notNullable().defaultTo('[]');
    t.timestamps(true, true);
    t.check("kind in ('MEAL', 'DRINK', 'MERCH', 'SERVICE')", [], 'fulfillment_items_kind_check');
    t.check("code ~ '^[A-Z0-9][A-Z0-9_-]{1,39}$'", [], 'fulfillment_items_code_check');
  });

  await knex.schema.createTable('offers', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('code').notNullable().unique();
    // Null: the offer applies to every show.
    t.uuid('show_id').references('shows.id').onDelete('RESTRICT');
    t.jsonb('name').notNullable();
    t.jsonb('description').notNullable().defaultTo('{}');
    t.text('booking_path').notNullable();
    t.text('experience_type').notNullable();
    t.integer('price_per_guest_vnd').notNullable();
    t.integer('min_guests').notNullable().defaultTo(1);
    t.integer('max_guests').notNullable().defaultTo(10);
    t.timestamp('sales_starts_at', { useTz: true });
    t.timestamp('sales_ends_at', { useTz: true });
    t.text('status').notNullable().defaultTo('ACTIVE');
    t.integer('sort_order').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.index(['show_id', 'status']);
    t.check("status in ('ACTIVE', 'INACTIVE')", [], 'offers_status_check');
    t.check("booking_path in ('DINNER_SHOW', 'SHOW_ONLY', 'VIP_DINNER_SHOW', 'PRIVATE_EVENT')", [], 'offers_booking_path_check');
    t.check("code ~ '^[A-Z0-9][A-Z0-9_-]{1,39}$'", [], 'offers_code_check');
    t.check('price_per_guest_vnd >= 0', [], 'offers_price_check');
    t.check('min_guests >= 1 and max_guests >= min_guests and max_guests <= 1000', [], 'offers_guests_check');
    t.check('sales_starts_at is null or sales_ends_at is null or sales_starts_at < sales_ends_at', [], 'offers_sales_window_check');
  });

  // What one guest of an offer receives: the kitchen's and floor's workload is the sum over bookings.
  await knex.schema.createTable('offer_items', (t) => {
    t.uuid('offer_id').notNullable().references('offers.id').onDelete('CASCADE');
    t.uuid('fulfillment_item_id').notNullable().references('fulfillment_items.id').onDelete('RESTRICT');
    t.integer('quantity_per_guest').notNullable().defaultTo(1);
    t.primary(['offer_id', 'fulfillment_item_id']);
    t.index(['fulfillment_item_id']);
    t.check('quantity_per_guest between 1 and 100', [], 'offer_items_quantity_check');
  });

  await knex.schema.createTable('venue_tables', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('code').notNullable().unique();
    t.text('zone').notNullable();
    t.integer('seats').notNullable();
    t.integer('sort_order').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.index(['zone', 'sort_order']);
    t.check("zone in ('STAGE_FRONT', 'VIP', 'MAIN', 'BALCONY')", [], 'venue_tables_zone_check');
    t.check("code ~ '^[A-Z0-9][A-Z0-9-]{0,15}$'", [], 'venue_tables_code_check');
    t.check('seats between 1 and 100', [], 'venue_tables_seats_check');
  });

  // Exactly one row (id = 1), written here with the column defaults so every read finds it.
  await knex.schema.createTable('commercial_setup', (t) => {
    t.integer('id').primary();
    t.integer('booking_cutoff_minutes').notNullable().defaultTo(120);
    t.integer('hold_minutes').notNullable().defaultTo(15);
    t.integer('cancellation_window_hours').notNullable().defaultTo(48);
    t.decimal('service_charge_percent', 5, 2).notNullable().defaultTo(5);
    t.decimal('vat_percent', 5, 2).notNullable().defaultTo(8);
    t.jsonb('payment_gateways').notNullable().defaultTo(JSON.stringify(['VNPAY']));
    t.integer('default_max_guests').notNullable().defaultTo(10);
    t.integer('limited_availability_threshold').notNullable().defaultTo(10);
    t.timestamps(true, true);
    t.check('id = 1', [], 'commercial_setup_single_row');
    t.check('booking_cutoff_minutes between 0 and 10080', [], 'commercial_setup_cutoff_check');
    t.check('hold_minutes between 1 and 1440', [], 'commercial_setup_hold_check');
    t.check('cancellation_window_hours between 0 and 720', [], 'commercial_setup_cancellation_check');
    t.check('service_charge_percent between 0 and 100', [], 'commercial_setup_service_charge_check');
    t.check('vat_percent between 0 and 100', [], 'commercial_setup_vat_check');
    t.check('default_max_guests between 1 and 1000', [], 'commercial_setup_max_guests_check');
    t.check('limited_availability_threshold between 0 and 1000', [], 'commercial_setup_threshold_check');
  });
  await knex('commercial_setup').insert({ id: 1 });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['commercial_setup', 'venue_tables', 'offer_items', 'offers', 'fulfillment_items', 'show_events', 'shows']) {
    await knex.schema.dropTable(table);
  }
}
