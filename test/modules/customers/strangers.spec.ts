import { expect } from 'chai';
import { bookableEvent } from '../booking/factories.ts';
import { catalogSpec, MISSING_ID } from '../shows/catalog.ts';

/**
 * Issue 21 §1: a guest's contact data goes to no stranger. A customer is stored with distinctive fields; a
 * stranger who knows only the e-mail address calls every public write with it. No answer carries a stored field,
 * the customer record is unchanged, and what the stranger typed is kept on its own rows (staff see it per
 * booking and may adopt it, or merge customers).
 */
describe('customers: strangers who know an e-mail address', () => {
  const spec = catalogSpec({ config: { trustProxy: true } });
  let ip = 1;
  const stranger = () => spec.as({ 'x-forwarded-for': `100.66.${(ip >> 8) & 255}.${ip++ & 255}` });
  const staff = () => spec.as(spec.callers.staff);
  const admin = () => spec.as(spec.callers.admin);

  /** What only the record holds: none of it may appear in any public answer. */
  const STORED = { honorific: 'Dr', name: 'Victoria Storedname', phone: '+84 99 888 7777', locale: 'en' };
  const SECRETS = ['Storedname', '888 7777', '"Dr"'];

  async function victim(email: string) {
    const [row] = await spec.server.db.knex('customers').insert({ ...STORED, email, email_normalized: email.toLowerCase() }).returning('*');
    await spec.server.db.knex('customer_emails').insert({ customer_id: row.id, email, email_normalized: email.toLowerCase() });
    return row as Record<string, unknown> & { id: string };
  }

  const record = async (id: string) => spec.server.db.knex('customers').where({ id }).first();

  function expectNothingStored(answers: Array<{ text: string }>) {
    for (const answer of answers) for (const secret of SECRETS) expect(answer.text, `an answer carries ${secret}`).not.to.include(secret);
  }

  it('every public write with a known e-mail answers nothing stored and leaves the record as it was', async () => {
    const email = 'victoria@example.com';
    const before = await victim(email);
    const typed = ' VICTORIA@example.com ';
    const open = await bookableEvent();
    const full = await bookableEvent({ capacity: 2 });

    const lead = await stranger().post('/api/reservations/customer-lead', { name: 'Mallory Lead', email: typed.trim(), locale: 'vi', eventSlug: open.event.slug });
    expect(lead.status).to.equal(201);
    // A hold with the contact (e-mail only, no phone) and one with the lead's reference alone.
    const hold = await stranger().post('/api/public/reservations', { eventSlug: open.event.slug, offerCode: open.offer.code, guestCount: 2, contact: { name: 'Mallory', email: typed.trim() } });
    expect(hold.status).to.equal(201);
    expect(hold.body.contact).to.deep.equal({ honorific: null, name: 'Mallory', email: 'VICTORIA@example.com', phone: null });
    const byLead = await stranger().post('/api/public/reservations', { eventSlug: open.event.slug, offerCode: open.offer.code, guestCount: 1, leadReference: lead.body.leadReference });
    expect(byLead.status).to.equal(201);
    expect(byLead.body.contact).to.deep.equal({ honorific: null, name: 'Mallory Lead', email: 'VICTORIA@example.com', phone: null });
    const read = await stranger().get(`/api/public/reservations/${hold.body.reference}`);
    const readWithToken = await spec.server.request('GET', `/api/public/reservations/${hold.body.reference}`, { headers: { 'x-reservation-token': hold.body.accessToken } });
    expect(readWithToken.body.contact.phone).to.equal(null);
    // Sold out: the waiting list, joined twice with the same address.
    const filler = await stranger().post('/api/public/reservations', { eventSlug: full.event.slug, offerCode: full.offer.code, guestCount: 2, contact: { name: 'Filler', email: 'filler@example.com' } });
    expect(filler.status).to.equal(201);
    const join = () => stranger().post('/api/waitlist', { eventSlug: full.event.slug, guestCount: 2, name: 'Mallory', email: typed.trim() });
    const joins = [await join(), await join()];
    const inquiry = await stranger().post('/api/inquiries', { type: 'GENERAL', name: 'Mallory', email: typed.trim(), message: 'Hello' });
    expect(inquiry.status).to.equal(201);
    const profile = await spec.server.request('POST', '/api/profiles', {
      headers: { 'x-reservation-token': hold.body.accessToken },
      body: { reservationReference: hold.body.reference, displayName: 'Mal' },
    });
    expect(profile.status).to.equal(201);
    const voucher = await stranger().post('/api/public/vouchers/balance', { code: 'GV-NONE-NONE' });

    expectNothingStored([lead, hold, byLead, read, readWithToken, ...joins, inquiry, profile, voucher]);
    expect(await record(before.id)).to.deep.equal(before);
    const live = await spec.server.db.knex('customers').where({ email_normalized: email, is_deleted: false }).count({ n: '*' }).first();
    expect(Number(live?.n)).to.equal(1);

    // What the stranger typed is kept on its own rows, under the customer.
    const rows = await spec.server.db.knex('reservations').whereIn('reference', [hold.body.reference, byLead.body.reference]).orderBy('guest_count', 'desc').select('customer_id', 'contact_name', 'contact_phone');
    expect(rows).to.deep.equal([
      { customer_id: before.id, contact_name: 'Mallory', contact_phone: null },
      { customer_id: before.id, contact_name: 'Mallory Lead', contact_phone: null },
    ]);
  });

  it('a duplicate waiting-list join answers exactly like the first and stores one entry', async () => {
    const full = await bookableEvent({ capacity: 1 });
    await stranger().post('/api/public/reservations', { eventSlug: full.event.slug, offerCode: full.offer.code, guestCount: 1, contact: { name: 'Filler', email: 'filler2@example.com' } });
    const join = (name: string, guestCount: number) => stranger().post('/api/waitlist', { eventSlug: full.event.slug, guestCount, name, email: 'waits@example.com', phone: '+84 90 111 2222' });
    const first = await join('First', 2);
    const second = await join('Second', 2);
    expect(first.status).to.equal(201);
    expect(second.status).to.equal(first.status);
    expect(second.body).to.deep.equal(first.body);
    expect(first.body).to.deep.equal({ eventSlug: full.event.slug, guestCount: 2, status: 'WAITING' });
    const entries = await spec.server.db.knex('waitlist_entries').where({ show_event_id: full.event.id }).select('name', 'guest_count');
    expect(entries).to.deep.equal([{ name: 'First', guest_count: 2 }]);
  });

  it('staff see the booked contact beside the record, adopt it, and merge duplicates (Admin+)', async () => {
    const before = await victim('adopt@example.com');
    const open = await bookableEvent();
    const hold = await stranger().post('/api/public/reservations', {
      eventSlug: open.event.slug,
      offerCode: open.offer.code,
      guestCount: 2,
      contact: { honorific: 'Ms', name: 'Adopted Name', email: 'adopt@example.com', phone: '+84 90 555 0000' },
    });
    const reservation = await spec.server.db.knex('reservations').where({ reference: hold.body.reference }).first('id');
    const seen = await staff().get(`/api/reservations/${reservation.id}`);
    expect(seen.status).to.equal(200);
    expect(seen.body.customer).to.include({ id: before.id, name: STORED.name, phone: STORED.phone });
    expect(seen.body.bookedContact).to.deep.equal({ honorific: 'Ms', name: 'Adopted Name', email: 'adopt@example.com', phone: '+84 90 555 0000' });
    const history = await staff().get(`/api/customers/${before.id}`);
    expect(history.body.bookings[0].bookedContact.name).to.equal('Adopted Name');

    // Adopt: only the chosen fields; a reservation of another customer is 422; anonymous is 401.
    expect((await stranger().post(`/api/customers/${before.id}/adopt-contact`, { reservationId: reservation.id })).status).to.equal(401);
    const other = await victim('other@example.com');
    const wrong = await staff().post(`/api/customers/${other.id}/adopt-contact`, { reservationId: reservation.id });
    expect(wrong.status).to.equal(422);
    expect(wrong.body.code).to.equal('reservation_not_customers');
    const adopted = await staff().post(`/api/customers/${before.id}/adopt-contact`, { reservationId: reservation.id, fields: ['phone'] });
    expect(adopted.status).to.equal(200);
    expect(adopted.body).to.include({ name: STORED.name, phone: '+84 90 555 0000', email: 'adopt@example.com' });
    const all = await staff().post(`/api/customers/${before.id}/adopt-contact`, { reservationId: reservation.id });
    expect(all.body).to.include({ honorific: 'Ms', name: 'Adopted Name', phone: '+84 90 555 0000' });

    // Merge: staff may not (it deletes a customer); admin moves everything and soft-deletes the duplicate.
    const merge = (as: typeof staff) => as().post(`/api/customers/${before.id}/merge`, { duplicateCustomerId: other.id });
    expect((await merge(staff)).status).to.equal(403);
    const dupHold = await stranger().post('/api/public/reservations', { eventSlug: open.event.slug, offerCode: open.offer.code, guestCount: 1, contact: { name: 'Other', email: 'other@example.com' } });
    const merged = await merge(admin);
    expect(merged.status).to.equal(200);
    expect(merged.body.id).to.equal(before.id);
    const moved = await spec.server.db.knex('reservations').where({ reference: dupHold.body.reference }).first('customer_id');
    expect(moved.customer_id).to.equal(before.id);
    expect((await record(other.id)).is_deleted).to.equal(true);
    const emails = await spec.server.db.knex('customer_emails').where({ customer_id: before.id }).orderBy('email_normalized').pluck('email_normalized');
    expect(emails).to.deep.equal(['adopt@example.com', 'other@example.com']);
    expect((await admin().post(`/api/customers/${before.id}/merge`, { duplicateCustomerId: before.id })).body.code).to.equal('same_customer');
    expect((await admin().post(`/api/customers/${before.id}/merge`, { duplicateCustomerId: other.id })).status).to.equal(409);
    expect((await admin().post(`/api/customers/${before.id}/merge`, { duplicateCustomerId: MISSING_ID })).status).to.equal(404);
  });

  it('a merge moves every row of the duplicate, whichever module owns its table (issue 33: each module moves its own)', async () => {
    const survivor = await victim('keeper@example.com');
    const duplicate = await victim('twin@example.com');
    const open = await bookableEvent();
    const full = await bookableEvent({ capacity: 2 });
    const contact = { name: 'Twin', email: 'twin@example.com' };
    expect((await stranger().post('/api/reservations/customer-lead', { ...contact, eventSlug: open.event.slug })).status).to.equal(201);
    expect((await stranger().post('/api/public/reservations', { eventSlug: open.event.slug, offerCode: open.offer.code, guestCount: 1, contact })).status).to.equal(201);
    await stranger().post('/api/public/reservations', { eventSlug: full.event.slug, offerCode: full.offer.code, guestCount: 2, contact: { name: 'Filler', email: 'filler2@example.com' } });
    expect((await stranger().post('/api/waitlist', { eventSlug: full.event.slug, guestCount: 2, ...contact })).status).to.be.oneOf([200, 201, 202]);
    expect((await stranger().post('/api/inquiries', { type: 'GENERAL', ...contact, message: 'Hello' })).status).to.equal(201);
    const knex = spec.server.db.knex;
    await knex('email_messages').whereRaw('lower(to_address) = ?', ['twin@example.com']).update({ customer_id: duplicate.id });
    const tables = ['reservations', 'customer_leads', 'waitlist_entries', 'inquiries'];
    const count = async (table: string, customerId: string) => Number((await knex(table).where({ customer_id: customerId }).count({ n: '*' }).first())!.n);
    for (const table of tables) expect(await count(table, duplicate.id), `${table} before`).to.be.greaterThan(0);
    const messages = await count('email_messages', duplicate.id);

    expect((await admin().post(`/api/customers/${survivor.id}/merge`, { duplicateCustomerId: duplicate.id })).status).to.equal(200);
    for (const table of [...tables, 'email_messages']) expect(await count(table, duplicate.id), `${table} left on the duplicate`).to.equal(0);
    for (const table of tables) expect(await count(table, survivor.id), `${table} on the survivor`).to.be.greaterThan(0);
    expect(await count('email_messages', survivor.id)).to.equal(messages);
  });

  it('staff bookings still edit the record', async () => {
    const before = await victim('phone-booking@example.com');
    const open = await bookableEvent();
    const created = await staff().post('/api/reservations', {
      eventId: open.event.id,
      offerCode: open.offer.code,
      guestCount: 2,
      contact: { name: 'Corrected Name', email: 'phone-booking@example.com', phone: '+84 90 777 0000' },
    });
    expect(created.status).to.equal(201);
    expect(await record(before.id)).to.include({ name: 'Corrected Name', phone: '+84 90 777 0000', honorific: 'Dr' });
  });

  it('a lead for an event that does not exist is 422 and stores nothing', async () => {
    const res = await stranger().post('/api/reservations/customer-lead', { name: 'Nobody', email: 'nobody@example.com', eventSlug: 'no-such-event-2026-12-05-1930' });
    expect(res.status).to.equal(422);
    expect(res.body.code).to.equal('unknown_event');
    expect(res.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['body/eventSlug']);
    expect(await spec.server.db.knex('customers').where({ email_normalized: 'nobody@example.com' }).first()).to.equal(undefined);
  });
});
