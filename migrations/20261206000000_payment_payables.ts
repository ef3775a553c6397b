import type { Knex } from 'knex';

/**
 * Payments settle a *payable* (issue 33 §4, server/domain/payables.ts): `payments.payable_kind` and
 * `payments.payable_id` name what a payment is for — `reservation` and the reservation's id for every row so far
 * (backfilled from `reservation_id`), another kind (a gift-voucher order) later. The payments module reads and
 * writes these two columns.
 *
 * `reservation_id` stays, as the admin routes' `Payment.reservationId` and the readers of that column (the staff's
 * reservation view, check-in, the guest's money, e-mail) need it, but may now be null: a payment for a payable that
 * is no reservation's has none. A reservation's payment keeps it equal to its payable id (checked). A row written
 * the old way, with `reservation_id` alone (fixtures, seed scripts, a writer not yet changed), is a reservation's
 * payment: a trigger fills its `payable_id` from `reservation_id` (`payable_kind` defaults to `reservation`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.text('payable_kind').notNullable().defaultTo('reservation');
    t.uuid('payable_id');
  });
  await knex('payments').update({ payable_id: knex.ref('reservation_id') });
  await knex.raw('alter table payments alter column payable_id set not null, alter column reservation_id drop not null');
  await knex.schema.alterTable('payments', (t) => {
    t.index(['payable_kind', 'payable_id', 'created_at']);
    t.check("payable_kind <> 'reservation' or reservation_id = payable_id", [], 'payments_reservation_payable_check');
  });
  await knex.raw(`
    create function payments_payable_from_reservation() returns trigger language plpgsql as $$
    begin
      if new.payable_id is null then new.payable_id := new.reservation_id; end if;
      return new;
    end $$`);
  await knex.raw('create trigger payments_payable_from_reservation before insert on payments for each row execute function payments_payable_from_reservation()');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists payments_payable_from_reservation on payments');
  await knex.raw('drop function if exists payments_payable_from_reservation()');
  await knex('payments').whereNot({ payable_kind: 'reservation' }).delete();
  await knex.schema.alterTable('payments', (t) => {
    t.dropChecks(['payments_reservation_payable_check']);
    t.dropIndex(['payable_kind', 'payable_id', 'created_at']);
    t.dropColumn('payable_kind');
    t.dropColumn('payable_id');
  });
  await knex.raw('alter table payments alter column reservation_id set not null');
}
