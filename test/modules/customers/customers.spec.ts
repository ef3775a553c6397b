import { expect } from 'chai';
import { bookableEvent, contact } from '../booking/factories.ts';
import { apiKeyWith, catalogSpec, MISSING_ID } from '../shows/catalog.ts';

/**
 * The CRM (issue 9, "Customers"): Staff+ reads and contact changes, Admin+ soft delete. Customers come from
 * real bookings (POST /api/public/reservations upserts them by normalized e-mail).
 */
describe('customers: /api/customers', () => {
  const spec = catalogSpec();
  const as = spec.as;
  const staff = () => as(spec.callers.staff);
  const admin = () => as(spec.callers.admin);
  let ip = 10;

  /** Books `guests` seats for the contact through the public API; answers the created reservation. */
  async function book(who: Record<string, unknown>, guests = 2) {
    const { event, offer } = await bookableEvent();
    const res = await as({ 'x-forwarded-for': `203.0.113.${ip++}` }).post('/api/public/reservations', { eventSlug: event.slug, offerCode: offer.code, guestCount: guests, contact: who });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return { reference: res.body.reference as string, event };
  }

  const customerIdOf = async (email: string) =>
    (await spec.server.db.knex('customers').where({ email_normalized: email.toLowerCase(), is_deleted: false }).first('id')).id as string;

  it('refuses anonymous callers (401) on every operation, and staff (403) on delete', async () => {
    await book(contact(101));
    const id = await customerIdOf('guest101@example.com');
    expect((await as({}).get('/api/customers')).status).to.equal(401);
    expect((await as({}).get(`/api/customers/${id}`)).status).to.equal(401);
    expect((await as({}).patch(`/api/customers/${id}`, { name: 'X' })).status).to.equal(401);
    expect((await as({}).delete(`/api/customers/${id}`)).status).to.equal(401);
    const refused = await staff().delete(`/api/customers/${id}`);
    expect(refused.status).to.equal(403);
    const row = await spec.server.db.knex('customers').where({ id }).first();
    expect(row.is_deleted).to.equal(false);
    expect(row.name).to.equal('Guest 101');
    expect((await staff().get('/api/customers')).status).to.equal(200);
    expect((await staff().get(`/api/customers/${id}`)).status).to.equal(200);
  });

  it('takes API keys with customers:read / customers:write for their own operations only', async () => {
    await book(contact(102));
    const id = await customerIdOf('guest102@example.com');
    const reader = await apiKeyWith('customers:read');
    expect((await as(reader).get(`/api/customers/${id}`)).status).to.equal(200);
    const refused = await as(reader).patch(`/api/customers/${id}`, { name: 'Key' });
    expect(refused.status).to.equal(403);
    expect(refused.body.code).to.equal('missing_permission');
    expect((await as(await apiKeyWith('customers:write')).patch(`/api/customers/${id}`, { name: 'Key' })).status).to.equal(200);
  });

  it('lists newest first with total and paging, and searches name, e-mail, phone and reservation reference', async () => {
    const a = await book({ ...contact(111), name: 'Trần Văn Searchable', phone: '+84 77 000 1111' });
    await book({ ...contact(112), email: 'Findme.Guest112@Example.com' });
    await book(contact(113));

    const byName = await staff().get('/api/customers?q=searchABLE');
    expect(byName.body.total).to.equal(1);
    expect(byName.body.items[0].email).to.equal('guest111@example.com');
    expect(Object.keys(byName.body.items[0]).sort()).to.deep.equal(['createdAt', 'deletedAt', 'email', 'honorific', 'id', 'isDeleted', 'locale', 'name', 'phone', 'updatedAt']);
    expect((await staff().get('/api/customers?q=findme.guest112')).body.items.map((c: { name: string }) => c.name)).to.deep.equal(['Guest 112']);
    expect((await staff().get(`/api/customers?q=${encodeURIComponent('77 000 11')}`)).body.items.map((c: { name: string }) => c.name)).to.deep.equal(['Trần Văn Searchable']);
    expect((await staff().get(`/api/customers?q=${a.reference.toLowerCase()}`)).body.items.map((c: { name: string }) => c.name)).to.deep.equal(['Trần Văn Searchable']);
    expect((await staff().get('/api/customers?q=%25')).body.total, '% is taken literally').to.equal(0);

    const all = await staff().get('/api/customers?limit=100');
    const total = all.body.total;
    expect(total).to.be.at.least(3);
    expect(all.body.items).to.have.length(Math.min(total, 100));
    const order = all.body.items.map((c: { createdAt: string; id: string }) => [c.createdAt, c.id]);
    const sorted = [...order].sort((x, y) => (x[0] === y[0] ? (x[1] < y[1] ? -1 : 1) : x[0] < y[0] ? 1 : -1));
    expect(order).to.deep.equal(sorted);
    expect(all.body.items.slice(0, 3).map((c: { name: string }) => c.name)).to.deep.equal(['Guest 113', 'Guest 112', 'Trần Văn Searchable']);

    const page = await staff().get('/api/customers?limit=2&offset=1');
    expect(page.body).to.include({ total, limit: 2, offset: 1 });
    expect(page.body.items.map((c: { id: string }) => c.id)).to.deep.equal(all.body.items.slice(1, 3).map((c: { id: string }) => c.id));
    expect((await staff().get('/api/customers?limit=0')).status).to.equal(400);
  });

  it('gets a customer with booking history (newest first) and e-mail history; 404 for an unknown id', async () => {
    const first = await book(contact(121), 2);
    const second = await book({ ...contact(121), email: 'GUEST121@example.com' }, 3);
    const id = await customerIdOf('guest121@example.com');
    const got = await staff().get(`/api/customers/${id}`);
    expect(got.status).to.equal(200);
    expect(got.body.customer).to.include({ id, name: 'Guest 121', isDeleted: false, deletedAt: null });
    expect(got.body.bookingsTotal).to.equal(2);
    expect(got.body.bookings.map((b: { reference: string }) => b.reference)).to.deep.equal([second.reference, first.reference]);
    const newest = got.body.bookings[0];
    expect(newest).to.include({ status: 'HELD', eventSlug: second.event.slug, guestCount: 3 });
    expect(newest.totalVnd).to.be.a('number').and.above(0);
    expect(newest.showTitle).to.be.a('string').and.not.equal('');
    expect(Object.keys(newest).sort()).to.deep.equal(['bookedContact', 'createdAt', 'eventSlug', 'eventStartsAt', 'guestCount', 'id', 'reference', 'showTitle', 'status', 'totalVnd']);
    expect(got.body.emails).to.have.length(1);

    const missing = await staff().get(`/api/customers/${MISSING_ID}`);
    expect(missing.status).to.equal(404);
    expect((await staff().patch(`/api/customers/${MISSING_ID}`, { name: 'Nobody' })).status).to.equal(404);
    expect((await admin().delete(`/api/customers/${MISSING_ID}`)).status).to.equal(404);
    expect((await staff().get('/api/customers/not-a-uuid')).status).to.equal(400);
  });

  it('updates contact fields; a new e-mail is normalized and recorded in the e-mail history', async () => {
    await book({ ...contact(131), honorific: 'Mr' });
    const id = await customerIdOf('guest131@example.com');
    const res = await staff().patch(`/api/customers/${id}`, { email: 'New.Address131@Example.COM', honorific: null, phone: '+84 91 555 0000', locale: 'en', name: 'Renamed 131' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ email: 'New.Address131@Example.COM', honorific: null, phone: '+84 91 555 0000', locale: 'en', name: 'Renamed 131' });
    const row = await spec.server.db.knex('customers').where({ id }).first();
    expect(row.email_normalized).to.equal('new.address131@example.com');
    const detail = await staff().get(`/api/customers/${id}`);
    expect(detail.body.emails.map((e: { email: string }) => e.email)).to.deep.equal(['guest131@example.com', 'New.Address131@Example.COM']);
    // The next booking with the new address finds this customer.
    await book({ ...contact(131), email: 'new.address131@example.com' });
    expect((await staff().get(`/api/customers/${id}`)).body.bookingsTotal).to.equal(2);

    const empty = await staff().patch(`/api/customers/${id}`, {});
    expect(empty.status).to.equal(400);
    const bad = await staff().patch(`/api/customers/${id}`, { email: 'not-an-email' });
    expect(bad.status).to.equal(400);
    expect(JSON.stringify(bad.body)).to.contain('/email');
  });

  it("refuses another live customer's e-mail (409 email_taken) and changes to a deleted customer (409 customer_deleted)", async () => {
    await book(contact(141));
    await book(contact(142));
    const a = await customerIdOf('guest141@example.com');
    const b = await customerIdOf('guest142@example.com');
    const clash = await staff().patch(`/api/customers/${b}`, { email: 'GUEST141@example.com' });
    expect(clash.status).to.equal(409);
    expect(clash.body.code).to.equal('email_taken');
    expect((await spec.server.db.knex('customers').where({ id: b }).first()).email).to.equal('guest142@example.com');
    expect(await spec.server.db.knex('customer_emails').where({ customer_id: b })).to.have.length(1);
    // Its own address in another case is fine.
    expect((await staff().patch(`/api/customers/${a}`, { email: 'Guest141@Example.com' })).status).to.equal(200);

    expect((await admin().delete(`/api/customers/${a}`)).status).to.equal(204);
    const gone = await staff().patch(`/api/customers/${a}`, { name: 'Back' });
    expect(gone.status).to.equal(409);
    expect(gone.body.code).to.equal('customer_deleted');
    // A deleted customer's address is free for a live one.
    expect((await staff().patch(`/api/customers/${b}`, { email: 'guest141@example.com' })).status).to.equal(200);
  });

  it('soft-deletes (admin, idempotent, history kept); a new booking with the address creates a new live customer', async () => {
    const first = await book(contact(151));
    const id = await customerIdOf('guest151@example.com');
    const deleted = await admin().delete(`/api/customers/${id}`);
    expect(deleted.status).to.equal(204);
    expect(deleted.text).to.equal('');
    const row = await spec.server.db.knex('customers').where({ id }).first();
    expect(row).to.include({ is_deleted: true, name: 'Guest 151' });
    expect(row.deleted_at).to.be.an.instanceOf(Date);
    expect((await admin().delete(`/api/customers/${id}`)).status, 'idempotent').to.equal(204);
    expect((await spec.server.db.knex('customers').where({ id }).first()).deleted_at.getTime()).to.equal(row.deleted_at.getTime());

    const still = await staff().get(`/api/customers/${id}`);
    expect(still.body.customer).to.include({ isDeleted: true });
    expect(still.body.bookings.map((b: { reference: string }) => b.reference)).to.deep.equal([first.reference]);
    expect((await staff().get('/api/customers?q=guest151')).body.total).to.equal(0);
    expect((await staff().get('/api/customers?q=guest151&includeDeleted=true')).body.items.map((c: { id: string }) => c.id)).to.deep.equal([id]);

    const again = await book({ ...contact(151), name: 'Guest 151 Again', phone: undefined });
    const live = await customerIdOf('guest151@example.com');
    expect(live).to.not.equal(id);
    const fresh = (await staff().get(`/api/customers/${live}`)).body;
    expect(fresh.customer).to.include({ name: 'Guest 151 Again', isDeleted: false });
    expect(fresh.customer.phone, 'no PII carried over from the deleted customer').to.equal(null);
    expect(fresh.bookings.map((b: { reference: string }) => b.reference)).to.deep.equal([again.reference]);
    const old = (await staff().get(`/api/customers/${id}`)).body;
    expect(old.customer).to.include({ isDeleted: true, name: 'Guest 151' });
    expect(old.bookingsTotal).to.equal(1);
    const both = await staff().get('/api/customers?q=guest151@&includeDeleted=true');
    expect(both.body.items.map((c: { id: string }) => c.id)).to.deep.equal([live, id]);
  });
});

describe('customers: /api/customers/{customerId}/emails', () => {
  const spec = catalogSpec();
  const as = spec.as;

  it("lists the ledger rows sent to the customer, newest first, paged; 401 anonymous, 404 unknown", async () => {
    const knex = spec.server.db.knex;
    const [customer] = await knex('customers').insert({ name: 'Mail Guest', email: 'mail.guest@example.com', email_normalized: 'mail.guest@example.com' }).returning('id');
    const [other] = await knex('customers').insert({ name: 'Other', email: 'other.mail@example.com', email_normalized: 'other.mail@example.com' }).returning('id');
    const row = (customerId: string, subject: string, at: string) => ({
      to_address: 'mail.guest@example.com',
      from_address: 'venue@example.com',
      subject,
      template: 'reservation-confirmation',
      locale: 'en',
      customer_id: customerId,
      html_body: '<p>secret body</p>',
      text_body: 'secret body',
      created_at: at,
    });
    await knex('email_messages').insert([
      row(customer.id, 'Older', '2026-11-01T10:00:00Z'),
      row(customer.id, 'Newer', '2026-11-02T10:00:00Z'),
      row(other.id, 'Not yours', '2026-11-03T10:00:00Z'),
    ]);
    const staff = as(spec.callers.staff);
    const res = await staff.get(`/api/customers/${customer.id}/emails`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ total: 2, limit: 20, offset: 0 });
    expect(res.body.items.map((m: { subject: string }) => m.subject)).to.deep.equal(['Newer', 'Older']);
    expect(res.body.items[0]).to.not.have.any.keys('htmlBody', 'textBody');
    expect(res.body.items[0].customerId).to.equal(customer.id);
    const page = await staff.get(`/api/customers/${customer.id}/emails?limit=1&offset=1`);
    expect(page.body.items.map((m: { subject: string }) => m.subject)).to.deep.equal(['Older']);
    expect(page.body.total).to.equal(2);

    expect((await as({}).get(`/api/customers/${customer.id}/emails`)).status).to.equal(401);
    expect((await staff.get(`/api/customers/${MISSING_ID}/emails`)).status).to.equal(404);
  });
});
