import type { Knex } from 'knex';

/**
 * Booking, first part (issue 9; DOMAIN.md "Booking", "Guests and CRM"): the CRM customer and its e-mail history,
 * the leads captured before checkout, the reservation (a guest's hold on seats of one show event, priced on the
 * server) and the Idempotency-Key ledger of the public create route. Payments, refunds and check-ins arrive with
 * the later parts of issue 9 and reference `reservations.id`.
 *
 * Money is whole VND (`integer`, like `offers.price_per_guest_vnd`); the setup's percentages used for a price are
 * copied onto the reservation, so a later change of the commercial setup never re-prices a booking.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('customers', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('honorific');
    t.text('name').notNullable();
    // As typed by the guest; `email_normalized` (trimmed, lower case) is the CRM key among live rows.
    t.text('email').notNullable();
    t.text('email_normalized').notNullable();
    t.text('phone');
    t.text('locale');
    t.boolean('is_deleted').notNullable().defaultTo(false);
    t.timestamp('deleted_at', { useTz: true });
    t.timestamps(true, true);
    t.check('email_normalized = lower(btrim(email))', [], 'customers_email_normalized_check');
  });
  // A soft-deleted customer keeps its row (and history); a new booking with the same address creates a new live one.
  await knex.raw('create unique index customers_email_live_unique on customers (email_normalized) where not is_deleted');

  await knex.schema.createTable('customer_emails', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('customer_id').notNullable().references('customers.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('email_normalized').notNullable();
    t.timestamp('first_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['customer_id', 'email_normalized']);
  });

  // One row per lead capture: the guest's reference is random, only its SHA-256 is stored.
  await knex.schema.createTable('customer_leads', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('customer_id').notNullable().references('customers.id').onDelete('CASCADE');
    t.binary('reference_hash').notNullable().unique();
    t.uuid('show_event_id').references('show_events.id').onDelete('SET NULL');
    t.text('booking_path');
    t.integer('guest_count');
    t.text('experience_type');
    t.text('analytics_session_id');
    t.text('analytics_distinct_id');
    t.text('analytics_local_session_id');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['customer_id']);
  });

  await knex.schema.createTable('reservations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('reference').notNullable().unique();
    t.uuid('show_event_id').notNullable().references('show_events.id').onDelete('RESTRICT');
    t.uuid('offer_id').notNullable().references('offers.id').onDelete('RESTRICT');
    t.uuid('customer_id').notNullable().references('customers.id').onDelete('RESTRICT');
    t.uuid('lead_id').references('customer_leads.id').onDelete('SET NULL');
    t.integer('guest_count').notNullable();
    t.text('status').notNullable().defaultTo('HELD');
    t.timestamp('hold_expires_at', { useTz: true });
    // The price as quoted at creation (server/domain/pricing.ts), whole VND, with the setup's percentages used.
    t.integer('price_per_guest_vnd').notNullable();
    t.integer('subtotal_vnd').notNullable();
    t.integer('discount_vnd').notNullable().defaultTo(0);
    t.integer('service_charge_vnd').notNullable();
    t.integer('vat_vnd').notNullable();
    t.integer('total_vnd').notNullable();
    t.decimal('service_charge_percent', 5, 2).notNullable();
    t.decimal('vat_percent', 5, 2).notNullable();
    t.text('booking_path').notNullable();
    t.text('experience_type');
    t.text('locale');
    // Guest access (read, cancel, checkout): random 32 bytes returned once; only the SHA-256 is kept.
    t.binary('access_token_hash').notNullable();
    t.text('customer_note');
    t.text('staff_notes');
    t.uuid('table_id').references('venue_tables.id').onDelete('SET NULL');
    t.text('analytics_session_id');
    t.text('analytics_distinct_id');
    t.text('analytics_local_session_id');
    // Attribution as the guest's browser sent it; applied to the price by later parts of issues 9 and 10.
    t.text('promo_code');
    t.text('voucher_code');
    t.text('referral_code');
    t.text('referral_link_slug');
    t.text('referral_partner_slug');
    t.timestamp('confirmed_at', { useTz: true });
    t.timestamp('checked_in_at', { useTz: true });
    t.timestamp('expired_at', { useTz: true });
    t.timestamp('cancelled_at', { useTz: true });
    t.text('cancellation_reason');
    t.text('cancelled_by');
    t.timestamps(true, true);
    t.index(['show_event_id', 'status']);
    t.index(['customer_id']);
    t.index(['status', 'hold_expires_at']);
    t.check(
      "status in ('HELD', 'CONFIRMED', 'CHECKED_IN', 'CANCELLED', 'EXPIRED', 'NO_SHOW')",
      [],
      'reservations_status_check',
    );
    t.check("status <> 'HELD' or hold_expires_at is not null", [], 'reservations_hold_check');
    t.check('guest_count between 1 and 1000', [], 'reservations_guest_count_check');
    t.check("reference ~ '^VN-[0-9A-Z]{6}$'", [], 'reservations_reference_check');
    t.check(
      'subtotal_vnd >= 0 and discount_vnd >= 0 and service_charge_vnd >= 0 and vat_vnd >= 0 and total_vnd >= 0',
      [],
      'reservations_amounts_check',
    );
    t.check("cancelled_by is null or cancelled_by in ('GUEST', 'STAFF', 'SYSTEM')", [], 'reservations_cancelled_by_check');
  });

  // Idempotency-Key ledger (24 h). The key is stored hashed, and the remembered answer encrypted with a key
  // derived from the client's Idempotency-Key: the access token it carries is unreadable without it.
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.text('route').notNullable();
    t.binary('key_hash').notNullable();
    t.binary('request_hash').notNullable();
    t.integer('response_status').notNullable();
    t.text('response_body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['route', 'key_hash']);
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['idempotency_keys', 'reservations', 'customer_leads', 'customer_emails', 'customers']) {
    await knex.schema.dropTable(table);
  }
}
