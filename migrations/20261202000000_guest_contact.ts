import type { Knex } from 'knex';

/**
 * A booking keeps the contact it was made with (issue 21 §1). Anonymous input — a lead, a hold, a waiting-list
 * join, an inquiry — never overwrites an existing CRM customer: the customer row stays as staff keep it, and what
 * the guest typed is kept on the row it came with (the reservation's and the lead's own snapshot; waiting-list
 * entries and inquiries already had theirs). The guest's answers are built from that snapshot, never from the
 * customer record, so knowing someone's e-mail address reveals nothing stored about them. Staff see, per
 * reservation, the contact it was booked with and can adopt it into the customer record.
 *
 * Existing rows are filled from their customer (what their guest saw until now).
 *
 * The guest's own view (issue 21 §3) and the e-mails' manage-booking link need the reservation's secrets again
 * after they were issued: the access token and the check-in token are kept sealed (AES-256-GCM) under this
 * database's own random key (`sealing_keys`, made on first use, like the referral signing key), beside their
 * SHA-256 digests, which stay the only thing compared. Rows from before this migration have none (their guest
 * keeps the token they were given; the QR is in their confirmation e-mail).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('reservations', (t) => {
    t.text('contact_honorific');
    t.text('contact_name');
    t.text('contact_email');
    t.text('contact_phone');
  });
  await knex.raw(
    `update reservations r
        set contact_honorific = c.honorific, contact_name = c.name, contact_email = c.email, contact_phone = c.phone
       from customers c
      where c.id = r.customer_id`,
  );
  await knex.raw('alter table reservations alter column contact_name set not null, alter column contact_email set not null');
  // A reservation written without a snapshot (a staff booking, a data fix) is booked with its customer's contact
  // as it stands then; the guest's own booking always brings the one it was made with.
  await knex.raw(`
    create function reservations_contact_snapshot() returns trigger language plpgsql as $$
    begin
      if new.contact_name is null or new.contact_email is null then
        select c.honorific, c.name, c.email, c.phone
          into new.contact_honorific, new.contact_name, new.contact_email, new.contact_phone
          from customers c where c.id = new.customer_id;
      end if;
      return new;
    end $$`);
  await knex.raw(
    'create trigger reservations_contact_snapshot before insert on reservations for each row execute function reservations_contact_snapshot()',
  );

  await knex.schema.alterTable('reservations', (t) => {
    t.text('access_token_sealed');
    t.text('check_in_token_sealed');
  });
  await knex.schema.createTable('sealing_keys', (t) => {
    t.text('purpose').primary();
    t.binary('secret').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.alterTable('customer_leads', (t) => {
    t.text('honorific');
    t.text('name');
    t.text('email');
    t.text('phone');
    t.text('locale');
  });
  await knex.raw(
    `update customer_leads l
        set honorific = c.honorific, name = c.name, email = c.email, phone = c.phone, locale = c.locale
       from customers c
      where c.id = l.customer_id`,
  );
  await knex.raw('alter table customer_leads alter column name set not null, alter column email set not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('customer_leads', (t) => {
    t.dropColumns('honorific', 'name', 'email', 'phone', 'locale');
  });
  await knex.schema.dropTable('sealing_keys');
  await knex.raw('drop trigger reservations_contact_snapshot on reservations');
  await knex.raw('drop function reservations_contact_snapshot()');
  await knex.schema.alterTable('reservations', (t) => {
    t.dropColumns('contact_honorific', 'contact_name', 'contact_email', 'contact_phone', 'access_token_sealed', 'check_in_token_sealed');
  });
}
