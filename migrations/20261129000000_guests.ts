import type { Knex } from 'knex';

/**
 * Guest services (issue 13; DOMAIN.md "Guests and CRM"): promo codes and vouchers (price reductions applied at
 * hold time through server/modules/booking/adjustments.ts), inquiries (public, bot-checked) with their
 * follow-ups, the waiting list, guest profiles and their reactions.
 *
 * - `promo_codes`: percent or fixed VND off the subtotal, a validity window, an optional maximum of redemptions
 *   (`redemption_count` counts the live ones: a cancelled or expired booking gives its redemption back), and
 *   show/offer restrictions (empty = any). ACTIVE ↔ INACTIVE; never deleted, so reservations keep their code.
 * - `promo_code_redemptions`: one per reservation that used a code; `released_at` once given back.
 * - `vouchers`: stored value in VND. ACTIVE → REDEEMED (nothing left) or EXPIRED (delete: remaining zeroed).
 *   The CHECK keeps `0 ≤ remaining ≤ initial` whatever the code does.
 * - `voucher_redemptions`: what one reservation took from a voucher; `released_at` once given back.
 * - `inquiries` and `inquiry_follow_ups` (each follow-up is an e-mail through the ledger).
 * - `waitlist_entries`: WAITING → NOTIFIED (an offer with an expiry; its seats held, see
 *   server/domain/availability.ts) → CONVERTED | EXPIRED.
 * - `guest_profiles` (a reservation's party member, opened by its own token, hashed) and `guest_reactions`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('promo_codes', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('code').notNullable().unique();
    t.text('description');
    t.text('discount_kind').notNullable();
    t.integer('percent_off');
    t.integer('amount_off_vnd');
    t.timestamp('valid_from', { useTz: true });
    t.timestamp('valid_until', { useTz: true });
    t.integer('max_redemptions');
    t.integer('redemption_count').notNullable().defaultTo(0);
    t.jsonb('show_ids').notNullable().defaultTo('[]');
    t.jsonb('offer_ids').notNullable().defaultTo('[]');
    t.text('status').notNullable().defaultTo('ACTIVE');
    t.timestamps(true, true);
    t.index(['status', 'created_at']);
    t.check("discount_kind in ('PERCENT', 'FIXED')", [], 'promo_codes_kind_check');
    t.check("status in ('ACTIVE', 'INACTIVE')", [], 'promo_codes_status_check');
    t.check(
      "(discount_kind = 'PERCENT' and percent_off between 1 and 100 and amount_off_vnd is null) or (discount_kind = 'FIXED' and amount_off_vnd > 0 and percent_off is null)",
      [],
      'promo_codes_amount_check',
    );
    t.check('redemption_count >= 0 and (max_redemptions is null or (max_redemptions > 0 and redemption_count <= max_redemptions))', [], 'promo_codes_redemptions_check');
    t.check('valid_from is null or valid_until is null or valid_from < valid_until', [], 'promo_codes_window_check');
  });

  await knex.schema.createTable('promo_code_redemptions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('promo_code_id').notNullable().references('promo_codes.id').onDelete('RESTRICT');
    t.uuid('reservation_id').notNullable().unique().references('reservations.id').onDelete('CASCADE');
    t.integer('discount_vnd').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('released_at', { useTz: true });
    t.index(['promo_code_id', 'created_at']);
    t.check('discount_vnd >= 0', [], 'promo_code_redemptions_amount_check');
  });

  await knex.schema.createTable('vouchers', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('code').notNullable().unique();
    t.integer('initial_value_vnd').notNullable();
    t.integer('remaining_value_vnd').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.text('status').notNullable().defaultTo('ACTIVE');
    t.text('recipient_name');
    t.text('recipient_email');
    t.text('note');
    t.text('created_by');
    t.timestamp('expired_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['status', 'created_at']);
    t.check("status in ('ACTIVE', 'REDEEMED', 'EXPIRED')", [], 'vouchers_status_check');
    t.check('initial_value_vnd > 0 and remaining_value_vnd >= 0 and remaining_value_vnd <= initial_value_vnd', [], 'vouchers_value_check');
  });

  await knex.schema.createTable('voucher_redemptions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('voucher_id').notNullable().references('vouchers.id').onDelete('RESTRICT');
    t.uuid('reservation_id').notNullable().unique().references('reservations.id').onDelete('CASCADE');
    t.integer('amount_vnd').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('released_at', { useTz: true });
    t.index(['voucher_id', 'created_at']);
    t.check('amount_vnd > 0', [], 'voucher_redemptions_amount_check');
  });

  await knex.schema.createTable('inquiries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('type').notNullable();
    t.text('status').notNullable().defaultTo('NEW');
    t.uuid('customer_id').references('customers.id').onDelete('SET NULL');
    t.text('name').notNullable();
    t.text('email').notNullable();
    t.text('phone');
    t.text('locale');
    t.date('preferred_date');
    t.integer('guest_count');
    t.text('message').notNullable();
    t.uuid('assignee_id').references('accounts.id').onDelete('SET NULL');
    t.boolean('botcheck_verified').notNullable().defaultTo(false);
    t.timestamp('archived_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['status', 'created_at']);
    t.index(['created_at']);
    t.check("type in ('PRIVATE_EVENT', 'GROUP_BOOKING', 'CORPORATE', 'GENERAL')", [], 'inquiries_type_check');
    t.check("status in ('NEW', 'IN_PROGRESS', 'FOLLOWED_UP', 'CLOSED', 'ARCHIVED')", [], 'inquiries_status_check');
    t.check('guest_count is null or guest_count > 0', [], 'inquiries_guest_count_check');
  });

  await knex.schema.createTable('inquiry_follow_ups', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('inquiry_id').notNullable().references('inquiries.id').onDelete('CASCADE');
    t.uuid('email_message_id').references('email_messages.id').onDelete('SET NULL');
    t.text('subject').notNullable();
    t.text('message').notNullable();
    t.text('sent_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['inquiry_id', 'created_at']);
  });

  await knex.schema.createTable('waitlist_entries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('show_event_id').notNullable().references('show_events.id').onDelete('RESTRICT');
    t.uuid('customer_id').references('customers.id').onDelete('SET NULL');
    t.text('name').notNullable();
    t.text('email').notNullable();
    t.text('phone');
    t.text('locale');
    t.integer('guest_count').notNullable();
    t.text('status').notNullable().defaultTo('WAITING');
    t.text('note');
    // The offer link's token (SHA-256) and until when it holds `guest_count` seats.
    t.binary('offer_token_hash').unique();
    t.timestamp('offer_expires_at', { useTz: true });
    t.timestamp('notified_at', { useTz: true });
    t.uuid('reservation_id').references('reservations.id').onDelete('SET NULL');
    t.timestamp('converted_at', { useTz: true });
    t.timestamp('expired_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['show_event_id', 'status', 'created_at']);
    t.check("status in ('WAITING', 'NOTIFIED', 'CONVERTED', 'EXPIRED')", [], 'waitlist_entries_status_check');
    t.check('guest_count > 0', [], 'waitlist_entries_guest_count_check');
  });

  await knex.schema.createTable('guest_profiles', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('reservation_id').notNullable().references('reservations.id').onDelete('CASCADE');
    t.text('display_name').notNullable();
    t.jsonb('dietary_preferences').notNullable().defaultTo('[]');
    t.text('dietary_note');
    t.uuid('table_id').references('venue_tables.id').onDelete('SET NULL');
    t.binary('token_hash').notNullable().unique();
    t.boolean('is_deleted').notNullable().defaultTo(false);
    t.timestamp('deleted_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['reservation_id']);
  });

  await knex.schema.createTable('guest_reactions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('profile_id').notNullable().references('guest_profiles.id').onDelete('CASCADE');
    t.text('emoji').notNullable();
    t.text('comment');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['profile_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'guest_reactions',
    'guest_profiles',
    'waitlist_entries',
    'inquiry_follow_ups',
    'inquiries',
    'voucher_redemptions',
    'vouchers',
    'promo_code_redemptions',
    'promo_codes',
  ]) {
    await knex.schema.dropTable(table);
  }
}
