import type { Knex } from 'knex';

/**
 * Paying later never loses the seats (issue 34 §1; DOMAIN.md "Booking", payment row). The commercial setup says, per
 * method, what choosing it does:
 *
 * - pay at the venue: the booking is confirmed at once with the amount due at the door, for parties of at most
 *   `pay_at_venue_max_guests` (null: any) and performances at most `pay_at_venue_max_days_ahead` days away (null:
 *   any); above either cap `pay_at_venue_over_limit` says whether the method is refused (`REFUSE`) or the hold is
 *   kept `pay_at_venue_approval_hours` for staff to confirm (`STAFF_APPROVAL`);
 * - bank transfer: the hold is kept `bank_transfer_hold_hours` from the booking (never past the booking cut-off),
 *   with a reminder `bank_transfer_reminder_hours` before it lapses (0: none).
 *
 * A reservation remembers the method its guest chose to pay later by (`pay_later_method`): what its guest's view,
 * its e-mails and the door say. The reminder is sent once per reservation (the ledger's unique index, as the
 * show reminder and the hold-expired message).
 *
 * A partner's public description may be written per locale (issue 34 §2): `description` stays the text in the site's
 * default locale, `description_translations` holds the others (`{"vi": "…"}`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('commercial_setup', (t) => {
    t.integer('pay_at_venue_max_guests');
    t.integer('pay_at_venue_max_days_ahead');
    t.text('pay_at_venue_over_limit').notNullable().defaultTo('REFUSE');
    t.integer('pay_at_venue_approval_hours').notNullable().defaultTo(48);
    t.integer('bank_transfer_hold_hours').notNullable().defaultTo(24);
    t.integer('bank_transfer_reminder_hours').notNullable().defaultTo(6);
    t.check('pay_at_venue_max_guests is null or pay_at_venue_max_guests between 1 and 1000', [], 'commercial_setup_pay_at_venue_guests_check');
    t.check('pay_at_venue_max_days_ahead is null or pay_at_venue_max_days_ahead between 0 and 365', [], 'commercial_setup_pay_at_venue_days_check');
    t.check("pay_at_venue_over_limit in ('REFUSE', 'STAFF_APPROVAL')", [], 'commercial_setup_pay_at_venue_over_limit_check');
    t.check('pay_at_venue_approval_hours between 1 and 336', [], 'commercial_setup_pay_at_venue_approval_check');
    t.check('bank_transfer_hold_hours between 1 and 336', [], 'commercial_setup_bank_transfer_hold_check');
    t.check('bank_transfer_reminder_hours between 0 and 336', [], 'commercial_setup_bank_transfer_reminder_check');
  });
  await knex.schema.alterTable('reservations', (t) => {
    t.text('pay_later_method');
    t.check("pay_later_method is null or pay_later_method in ('PAY_AT_VENUE', 'BANK_TRANSFER')", [], 'reservations_pay_later_method_check');
  });
  await knex.schema.alterTable('referral_partners', (t) => {
    t.jsonb('description_translations').notNullable().defaultTo('{}');
  });
  await knex.raw('drop index if exists email_messages_once_per_reservation');
  await knex.raw(
    `create unique index email_messages_once_per_reservation on email_messages (reservation_id, template)
      where reservation_id is not null and template in ('reservation-reminder', 'hold-expired', 'bank-transfer-reminder')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists email_messages_once_per_reservation');
  await knex.raw(
    `create unique index email_messages_once_per_reservation on email_messages (reservation_id, template)
      where reservation_id is not null and template in ('reservation-reminder', 'hold-expired')`,
  );
  await knex.schema.alterTable('referral_partners', (t) => {
    t.dropColumn('description_translations');
  });
  await knex.schema.alterTable('reservations', (t) => {
    t.dropChecks(['reservations_pay_later_method_check']);
    t.dropColumn('pay_later_method');
  });
  await knex.schema.alterTable('commercial_setup', (t) => {
    t.dropChecks([
      'commercial_setup_pay_at_venue_guests_check',
      'commercial_setup_pay_at_venue_days_check',
      'commercial_setup_pay_at_venue_over_limit_check',
      'commercial_setup_pay_at_venue_approval_check',
      'commercial_setup_bank_transfer_hold_check',
      'commercial_setup_bank_transfer_reminder_check',
    ]);
    for (const column of ['pay_at_venue_max_guests', 'pay_at_venue_max_days_ahead', 'pay_at_venue_over_limit', 'pay_at_venue_approval_hours', 'bank_transfer_hold_hours', 'bank_transfer_reminder_hours']) t.dropColumn(column);
  });
}
