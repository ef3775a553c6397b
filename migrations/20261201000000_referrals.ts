import type { Knex } from 'knex';

/**
 * The referral program (issue 12; DOMAIN.md "Referral"): partners, their codes and links, click attribution
 * counters (link × hour bucket, nothing personal), commissions (one per reservation: the unique index makes the
 * payment hook's insert exactly-once) and payout batches (a commission is in at most one: `payout_id`).
 * Reservations gain the resolved attribution (partner, code, link) their price adjustment found.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('referral_partners', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.text('type').notNullable();
    t.text('status').notNullable().defaultTo('PENDING');
    t.text('public_slug').notNullable().unique();
    t.text('contact_email');
    t.text('contact_phone');
    t.text('website_url');
    t.text('city');
    t.text('description');
    // The commercial terms ("service fields"): never public.
    t.text('commission_kind').notNullable().defaultTo('PERCENT');
    t.integer('commission_value').notNullable().defaultTo(0);
    t.text('payout_details');
    t.text('external_place_id');
    t.text('notes');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check("type in ('HOTEL','TOUR_COMPANY','CONCIERGE','INFLUENCER','BAR','OTHER')", [], 'referral_partners_type_check');
    t.check("status in ('PENDING','ACTIVE','SUSPENDED','ARCHIVED')", [], 'referral_partners_status_check');
    t.check("commission_kind in ('PERCENT','FIXED_PER_GUEST') and commission_value >= 0", [], 'referral_partners_commission_check');
  });

  await knex.schema.createTable('referral_codes', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('code').notNullable().unique();
    t.uuid('partner_id').notNullable().references('referral_partners.id');
    t.text('status').notNullable().defaultTo('ACTIVE');
    t.integer('guest_discount_percent').notNullable().defaultTo(0);
    // Overrides the partner's rule when both are set.
    t.text('commission_kind');
    t.integer('commission_value');
    t.text('description');
    t.timestamp('archived_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check("status in ('ACTIVE','ARCHIVED')", [], 'referral_codes_status_check');
    t.check('guest_discount_percent between 0 and 100', [], 'referral_codes_discount_check');
    t.index(['partner_id']);
  });

  await knex.schema.createTable('referral_links', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('slug').notNullable();
    t.text('destination').notNullable();
    t.text('channel').notNullable();
    t.text('label');
    t.text('status').notNullable().defaultTo('ACTIVE');
    t.uuid('partner_id').notNullable().references('referral_partners.id');
    t.uuid('code_id').references('referral_codes.id');
    t.uuid('sticker_blob_id');
    t.text('sticker_url');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['slug'], { indexName: 'referral_links_slug_unique' });
    t.check("channel in ('QR_STICKER','INFLUENCER','BAR','WEBSITE','SOCIAL')", [], 'referral_links_channel_check');
    t.check("status in ('ACTIVE','PAUSED','ARCHIVED')", [], 'referral_links_status_check');
    t.index(['partner_id']);
  });

  await knex.schema.createTable('referral_clicks', (t) => {
    t.uuid('link_id').notNullable().references('referral_links.id');
    t.timestamp('bucket', { useTz: true }).notNullable();
    t.integer('click_count').notNullable().defaultTo(0);
    t.primary(['link_id', 'bucket']);
  });

  await knex.schema.createTable('referral_signing_keys', (t) => {
    t.integer('id').primary();
    t.binary('secret').notNullable();
    t.check('id = 1', [], 'referral_signing_keys_one_row');
  });

  await knex.schema.createTable('referral_payouts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('reference').notNullable().unique();
    t.uuid('partner_id').notNullable().references('referral_partners.id');
    t.integer('total_vnd').notNullable();
    t.integer('commission_count').notNullable();
    t.text('note');
    t.text('created_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['partner_id']);
  });

  await knex.schema.createTable('referral_commissions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('partner_id').notNullable().references('referral_partners.id');
    t.uuid('code_id').references('referral_codes.id');
    t.uuid('link_id').references('referral_links.id');
    t.uuid('reservation_id').notNullable().references('reservations.id');
    t.uuid('payment_id');
    t.integer('base_vnd').notNullable();
    t.integer('amount_vnd').notNullable();
    t.text('status').notNullable().defaultTo('PENDING');
    t.uuid('payout_id').references('referral_payouts.id');
    t.text('void_reason');
    t.timestamp('status_changed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['reservation_id'], { indexName: 'referral_commissions_reservation_unique' });
    t.check("status in ('PENDING','APPROVED','PAID','VOID')", [], 'referral_commissions_status_check');
    t.check('base_vnd >= 0 and amount_vnd >= 0', [], 'referral_commissions_amounts_check');
    t.check("(status = 'PAID') = (payout_id is not null)", [], 'referral_commissions_paid_check');
    t.index(['partner_id', 'status']);
  });

  await knex.schema.alterTable('reservations', (t) => {
    t.uuid('referral_partner_id').references('referral_partners.id');
    t.uuid('referral_code_id').references('referral_codes.id');
    t.uuid('referral_link_id').references('referral_links.id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('reservations', (t) => {
    t.dropColumns('referral_partner_id', 'referral_code_id', 'referral_link_id');
  });
  for (const table of ['referral_commissions', 'referral_payouts', 'referral_signing_keys', 'referral_clicks', 'referral_links', 'referral_codes', 'referral_partners']) {
    await knex.schema.dropTable(table);
  }
}
