import type { Knex } from 'knex';

/**
 * Gift vouchers sold online (issue 36 §1; docs/flows/gift-vouchers.md).
 *
 * - `commercial_setup` gains the venue's gift-voucher terms: the amounts it offers, the bounds of an amount the buyer
 *   chooses (both null: only the listed amounts), and how many months a sold voucher is valid (36: Vietnam's civil
 *   limitation period for contract claims, the reference consumer rules leave; see the flow's page).
 * - `gift_voucher_orders` (the giftVouchers module): a buyer's order, a payable of its own (`voucher_order`), which
 *   issues a voucher of the `vouchers` table once paid. `access_token_hash`: the SHA-256 of the token the buyer's
 *   browser reads the order with (never stored in clear).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('commercial_setup', (t) => {
    t.jsonb('gift_voucher_amounts_vnd').notNullable().defaultTo(JSON.stringify([500_000, 1_000_000, 2_000_000]));
    t.integer('gift_voucher_min_vnd').defaultTo(200_000);
    t.integer('gift_voucher_max_vnd').defaultTo(20_000_000);
    t.integer('gift_voucher_validity_months').notNullable().defaultTo(36);
    t.check(
      '(gift_voucher_min_vnd is null) = (gift_voucher_max_vnd is null) and (gift_voucher_min_vnd is null or (gift_voucher_min_vnd > 0 and gift_voucher_min_vnd <= gift_voucher_max_vnd))',
      [],
      'commercial_setup_gift_voucher_bounds_check',
    );
    t.check('gift_voucher_validity_months between 1 and 120', [], 'commercial_setup_gift_voucher_validity_check');
  });

  await knex.schema.createTable('gift_voucher_orders', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('reference').notNullable().unique();
    t.binary('access_token_hash').notNullable();
    t.text('status').notNullable().defaultTo('PENDING');
    t.integer('amount_vnd').notNullable();
    t.text('buyer_name').notNullable();
    t.text('buyer_email').notNullable();
    t.text('recipient_name').notNullable();
    t.text('recipient_email').notNullable();
    t.text('message');
    // A calendar day in the venue's time zone, kept as its `YYYY-MM-DD` text (read alike on pg and PGlite).
    t.text('delivery_date').notNullable();
    t.text('locale').notNullable();
    t.uuid('voucher_id').unique().references('vouchers.id').onDelete('RESTRICT');
    t.timestamp('pay_by', { useTz: true }).notNullable();
    t.timestamp('paid_at', { useTz: true });
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('refunded_at', { useTz: true });
    t.text('refunded_by');
    t.timestamps(true, true);
    t.index(['status', 'created_at']);
    t.check("status in ('PENDING', 'PAID', 'REFUNDED', 'EXPIRED')", [], 'gift_voucher_orders_status_check');
    t.check('amount_vnd > 0', [], 'gift_voucher_orders_amount_check');
    t.check("delivery_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'", [], 'gift_voucher_orders_delivery_date_check');
    t.check("status not in ('PAID', 'REFUNDED') or voucher_id is not null", [], 'gift_voucher_orders_voucher_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('gift_voucher_orders');
  await knex.schema.alterTable('commercial_setup', (t) => {
    t.dropChecks(['commercial_setup_gift_voucher_bounds_check', 'commercial_setup_gift_voucher_validity_check']);
    t.dropColumns('gift_voucher_amounts_vnd', 'gift_voucher_min_vnd', 'gift_voucher_max_vnd', 'gift_voucher_validity_months');
  });
}
