import type { Knex } from 'knex';

/**
 * Payments and refunds (issue 9), and the reservation columns confirmation and check-in need.
 *
 * - `payments`: one row per payment attempt or on-site payment of a reservation. `txn_ref` is what the gateway
 *   sees (VNPay's `vnp_TxnRef`, unique per attempt; the reference a guest quotes on a bank transfer), unique.
 *   Amounts are whole VND; `refunded_vnd` is the sum of the SUCCEEDED refunds, never above `amount_vnd`.
 *   PENDING → SUCCEEDED | FAILED; SUCCEEDED → PARTIALLY_REFUNDED → REFUNDED.
 * - `payment_callbacks`: the raw audit of every gateway callback received (IPN and browser return), whether its
 *   signature held or not, and what we answered. Nothing in it is needed to run; it is what a dispute needs.
 * - `refunds`: PENDING → SUCCEEDED | FAILED, amount ≤ what is left on the payment (checked by the command under a
 *   row lock on the payment; the CHECKs here keep the sums sane whatever the code does).
 * - reservations: `check_in_token_hash` (the QR's token, SHA-256; set at confirmation), who confirmed, when a
 *   no-show was marked, and the price's reductions by kind.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('reservations', (t) => {
    t.binary('check_in_token_hash').unique();
    t.text('confirmed_by');
    t.timestamp('no_show_at', { useTz: true });
    // The price's reductions by kind (server/modules/booking/adjustments.ts): discount_vnd = promo + referral;
    // the voucher's credit comes off after the charges.
    t.integer('promo_discount_vnd').notNullable().defaultTo(0);
    t.integer('referral_discount_vnd').notNullable().defaultTo(0);
    t.integer('voucher_credit_vnd').notNullable().defaultTo(0);
    t.index(['created_at']);
    t.check("confirmed_by is null or confirmed_by in ('PAYMENT', 'STAFF', 'SYSTEM')", [], 'reservations_confirmed_by_check');
    t.check('promo_discount_vnd >= 0 and referral_discount_vnd >= 0 and voucher_credit_vnd >= 0', [], 'reservations_reductions_check');
  });

  await knex.schema.createTable('payments', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('reservation_id').notNullable().references('reservations.id').onDelete('RESTRICT');
    t.text('gateway').notNullable();
    t.text('status').notNullable().defaultTo('PENDING');
    t.integer('amount_vnd').notNullable();
    t.integer('refunded_vnd').notNullable().defaultTo(0);
    t.text('txn_ref').notNullable().unique();
    // The gateway's own id of the transaction (VNPay vnp_TransactionNo), its bank and card type, its pay date.
    t.text('gateway_transaction_id');
    t.text('bank_code');
    t.text('card_type');
    t.text('gateway_response_code');
    t.timestamp('gateway_paid_at', { useTz: true });
    // Staff who recorded an on-site payment (users.id; kept as text: an API key or a superuser token may record).
    t.text('recorded_by');
    t.text('note');
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('succeeded_at', { useTz: true });
    t.timestamp('failed_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['reservation_id', 'created_at']);
    t.index(['status', 'created_at']);
    t.index(['created_at']);
    t.check("gateway in ('VNPAY', 'BANK_TRANSFER', 'CASH', 'CARD_ON_SITE')", [], 'payments_gateway_check');
    t.check("status in ('PENDING', 'SUCCEEDED', 'FAILED', 'PARTIALLY_REFUNDED', 'REFUNDED')", [], 'payments_status_check');
    t.check('amount_vnd > 0 and refunded_vnd >= 0 and refunded_vnd <= amount_vnd', [], 'payments_amounts_check');
  });

  await knex.schema.createTable('payment_callbacks', (t) => {
    t.bigIncrements('id').primary();
    t.text('gateway').notNullable();
    // IPN (server to server) or RETURN (the guest's browser).
    t.text('kind').notNullable();
    t.uuid('payment_id').references('payments.id').onDelete('SET NULL');
    t.text('txn_ref');
    t.jsonb('params').notNullable();
    t.boolean('signature_valid').notNullable();
    t.text('outcome');
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['payment_id']);
    t.index(['txn_ref']);
    t.check("kind in ('IPN', 'RETURN')", [], 'payment_callbacks_kind_check');
  });

  await knex.schema.createTable('refunds', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('payment_id').notNullable().references('payments.id').onDelete('RESTRICT');
    t.integer('amount_vnd').notNullable();
    t.text('reason');
    t.text('status').notNullable().defaultTo('PENDING');
    // STAFF (a person, `requested_by` = users.id or key) or SYSTEM (a cancelled event, a cancelled reservation).
    t.text('requested_by');
    t.text('gateway_refund_id');
    t.text('gateway_response_code');
    t.jsonb('gateway_response');
    t.text('failure_reason');
    t.timestamp('completed_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['payment_id', 'created_at']);
    t.index(['status', 'created_at']);
    t.check("status in ('PENDING', 'SUCCEEDED', 'FAILED')", [], 'refunds_status_check');
    t.check('amount_vnd > 0', [], 'refunds_amount_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('refunds');
  await knex.schema.dropTable('payment_callbacks');
  await knex.schema.dropTable('payments');
  await knex.schema.alterTable('reservations', (t) => {
    t.dropChecks(['reservations_confirmed_by_check', 'reservations_reductions_check']);
    t.dropIndex(['created_at']);
    t.dropColumns('check_in_token_hash', 'confirmed_by', 'no_show_at', 'promo_discount_vnd', 'referral_discount_vnd', 'voucher_credit_vnd');
  });
}
