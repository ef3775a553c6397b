import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { countRows } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { bookableEvent, contact } from './factories.ts';

/** Each request its own client address (TRUST_PROXY), so the per-address rate limits stay out of the way. */
let ipCounter = 0;
const fromNewAddress = () => ({ 'x-forwarded-for': `10.${(++ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}` });

describe('booking: the guest hold (POST /api/public/reservations)', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({ config: { trustProxy: true } });
  });
  afterEach(() => server.close());

  const hold = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    server.request<any>('POST', '/api/public/reservations', { body, headers: { ...fromNewAddress(), ...headers } });

  it('holds seats for the hold time, priced on the server, and returns the access token once (only its hash stored)', async () => {
    const { event, offer, startsAt } = await bookableEvent({ price: 1_500_000 });
    const before = Date.now();
    const res = await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: contact(), customerNote: 'Vegetarian', analytics: { sessionId: 's-1', distinctId: 'd-1', localSessionId: 'l-1' }, referral: { code: 'HOTEL1' } });
    expect(res.status).to.equal(201);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    const body = res.body;
    expect(body.reference).to.match(/^VN-[0-9A-Z]{6}$/);
    expect(body.status).to.equal('HELD');
    const expires = new Date(body.holdExpiresAt).getTime();
    expect(expires).to.be.within(before + 15 * 60_000 - 5_000, Date.now() + 15 * 60_000 + 5_000);
    // 3,000,000 subtotal; 5 % service 150,000; 8 % VAT of 3,150,000 = 252,000.
    expect(body.price).to.deep.equal({ currency: 'VND', pricePerGuestVnd: 1_500_000, subtotalVnd: 3_000_000, discountVnd: 0, serviceChargeVnd: 150_000, vatVnd: 252_000, voucherCreditVnd: 0, totalVnd: 3_402_000, serviceChargePercent: 5, vatPercent: 8 });
    expect(body.event).to.include({ slug: event.slug, startsAt: startsAt.toISOString(), status: 'SCHEDULED' });
    expect(body.offer.code).to.equal(offer.code);
    expect(body.attribution).to.deep.equal({ promoCode: null, voucherCode: null, referralCode: 'HOTEL1' });
    expect(body.accessToken).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(body).not.to.have.property('id');
    expect(body).not.to.have.property('staffNotes');

    const row = await server.db.knex('reservations').where({ reference: body.reference }).first();
    expect(row).to.include({ status: 'HELD', guest_count: 2, total_vnd: 3_402_000, analytics_session_id: 's-1', analytics_distinct_id: 'd-1', analytics_local_session_id: 'l-1', promo_code: null, referral_code: 'HOTEL1', customer_note: 'Vegetarian' });
    expect(Buffer.from(row.access_token_hash).equals(createHash('sha256').update(body.accessToken).digest())).to.equal(true);
    expect(JSON.stringify(row)).not.to.include(body.accessToken);
    const customer = await server.db.knex('customers').where({ id: row.customer_id }).first();
    expect(customer).to.include({ email_normalized: 'guest1@example.com', name: 'Guest 1', is_deleted: false });
  });

  it('the public catalog counts holds: seats left drop, then SOLD_OUT', async () => {
    const { event, offer } = await bookableEvent({ capacity: 30 });
    const seen = async () => (await server.request<any>('GET', `/api/public/show-events/${event.slug}`)).body;
    expect(await seen()).to.deep.include({ state: 'AVAILABLE', seatsLeft: 30 });
    expect((await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 5, contact: contact() })).status).to.equal(201);
    expect(await seen()).to.deep.include({ state: 'AVAILABLE', seatsLeft: 25 });
    for (let i = 0; i < 2; i++) expect((await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 10, contact: contact(i + 2) })).status).to.equal(201);
    expect(await seen()).to.deep.include({ state: 'LIMITED', seatsLeft: null });
    expect((await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 5, contact: contact(9) })).status).to.equal(201);
    expect(await seen()).to.deep.include({ state: 'SOLD_OUT' });
    // An expired hold frees its seats at once (by time), before any job marks it.
    await server.db.knex('reservations').update({ hold_expires_at: new Date(Date.now() - 1000) });
    // (The clock moved behind the app's back: a kept answer would stay until the expiry the hold had.)
    server.app.context.catalogCache.clear();
    expect(await seen()).to.deep.include({ state: 'AVAILABLE', seatsLeft: 30 });
  });

  it('refuses with stable codes: sold_out, not_enough_seats, closed sales, cut-off, cancelled event, offers, guest range, contact', async () => {
    const { event, offer, show } = await bookableEvent({ capacity: 4, minGuests: 2, maxGuests: 6 });
    const base = { eventSlug: event.slug, offerCode: offer.code, contact: contact() };
    expect((await hold({ ...base, guestCount: 5 })).body.code).to.equal('not_enough_seats');
    expect((await hold({ ...base, guestCount: 1 })).body).to.include({ status: 422, code: 'guest_count_out_of_range' });
    expect((await hold({ ...base, guestCount: 7 })).body.code).to.equal('guest_count_out_of_range');
    expect((await hold({ ...base, guestCount: 4 })).status).to.equal(201);
    const soldOut = await hold({ ...base, guestCount: 2 });
    expect(soldOut.status).to.equal(409);
    expect(soldOut.body.code).to.equal('sold_out');
    expect((await hold({ ...base, eventSlug: 'no-such-event-2030-01-01-1930', guestCount: 2 })).status).to.equal(404);
    expect((await hold({ ...base, offerCode: 'NOPE', guestCount: 2 })).body.code).to.equal('offer_unavailable');
    expect((await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 2 })).body.code).to.equal('contact_required');
    expect((await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 2, leadReference: 'Lnot-a-real-lead-reference' })).body.code).to.equal('unknown_lead');

    const other = await bookableEvent();
    const codeOf = async (body: Record<string, unknown>) => (await hold(body)).body.code;
    const otherBase = { eventSlug: other.event.slug, offerCode: other.offer.code, guestCount: 2, contact: contact() };
    // Another show's offer.
    expect(await codeOf({ ...otherBase, offerCode: offer.code })).to.equal('offer_unavailable');
    await server.db.knex('offers').where({ id: other.offer.id }).update({ sales_ends_at: new Date(Date.now() - 1000), sales_starts_at: new Date(Date.now() - 86_400_000) });
    expect(await codeOf(otherBase)).to.equal('offer_sales_closed');
    await server.db.knex('offers').where({ id: other.offer.id }).update({ sales_ends_at: null, sales_starts_at: null, status: 'INACTIVE' });
    expect(await codeOf(otherBase)).to.equal('offer_unavailable');
    await server.db.knex('offers').where({ id: other.offer.id }).update({ status: 'ACTIVE' });
    await server.db.knex('show_events').where({ id: other.event.id }).update({ sales_open: false });
    expect(await codeOf(otherBase)).to.equal('sales_closed');
    await server.db.knex('show_events').where({ id: other.event.id }).update({ sales_open: true });
    await server.db.knex('commercial_setup').where({ id: 1 }).update({ booking_cutoff_minutes: 2 * 24 * 60 });
    await server.db.knex('show_events').where({ id: other.event.id }).update({ starts_at: new Date(Date.now() + 86_400_000), doors_at: null });
    expect(await codeOf(otherBase)).to.equal('booking_closed');
    await server.db.knex('commercial_setup').where({ id: 1 }).update({ booking_cutoff_minutes: 120 });
    await server.db.knex('show_events').where({ id: other.event.id }).update({ status: 'CANCELLED', cancelled_at: new Date() });
    expect(await codeOf(otherBase)).to.equal('event_not_bookable');
    await server.db.knex('shows').where({ id: show.id }).update({ status: 'DRAFT' });
    expect((await hold({ ...base, guestCount: 2 })).status).to.equal(404);
    expect(await countRows(server.db.knex, 'reservations')).to.equal(1);
  });

  it('200 concurrent requests for the last 10 seats end with exactly 10 guests held @db', async function () {
    this.timeout(120_000);
    const { event, offer } = await bookableEvent({ capacity: 50 });
    // 40 seats taken already: 10 left.
    for (let i = 0; i < 4; i++) expect((await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 10, contact: contact(100 + i) })).status).to.equal(201);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 1 + (i % 2), contact: contact(i) })),
    );
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 409);
    expect(created.length + refused.length).to.equal(200);
    expect(refused.every((a) => ['sold_out', 'not_enough_seats'].includes(a.body.code))).to.equal(true);
    const heldGuests = created.reduce((sum, a) => sum + a.body.guestCount, 0);
    expect(heldGuests).to.equal(10);
    const { sum } = (await server.db.knex('reservations').where({ show_event_id: event.id, status: 'HELD' }).sum({ sum: 'guest_count' }).first()) as { sum: string };
    expect(Number(sum)).to.equal(50);
  });

  it('Idempotency-Key: the same key and body replay the first answer; another body is 422 idempotency_key_reused @db', async () => {
    const { event, offer } = await bookableEvent();
    const key = 'f0e1d2c3-b4a5-4678-9abc-def012345678';
    const body = { eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: contact() };
    const first = await hold(body, { 'idempotency-key': key });
    expect(first.status).to.equal(201);
    // Same body, keys in another order: the same request.
    const again = await hold({ contact: contact(), guestCount: 2, offerCode: offer.code, eventSlug: event.slug }, { 'idempotency-key': key });
    expect(again.status).to.equal(201);
    expect(again.body).to.deep.equal(first.body);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(await countRows(server.db.knex, 'reservations')).to.equal(1);
    const reused = await hold({ ...body, guestCount: 3 }, { 'idempotency-key': key });
    expect(reused.status).to.equal(422);
    expect(reused.body.code).to.equal('idempotency_key_reused');
    // Concurrent retries with one key: one reservation, one answer.
    const other = 'a0e1d2c3-b4a5-4678-9abc-def012345678';
    const burst = await Promise.all(Array.from({ length: 8 }, () => hold({ ...body, guestCount: 1 }, { 'idempotency-key': other })));
    expect(burst.every((a) => a.status === 201 && a.body.reference === burst[0].body.reference)).to.equal(true);
    expect(await countRows(server.db.knex, 'reservations')).to.equal(2);
    // Stored sealed: neither the key nor the token readable at rest.
    const rows = await server.db.knex('idempotency_keys').select('*');
    expect(JSON.stringify(rows)).not.to.include(first.body.accessToken);
    expect(JSON.stringify(rows)).not.to.include(key);
    // A different key with the same body is a new booking; a key older than 24 h is forgotten.
    await server.db.knex('idempotency_keys').update({ created_at: new Date(Date.now() - 25 * 3_600_000) });
    const later = await hold(body, { 'idempotency-key': key });
    expect(later.status).to.equal(201);
    expect(later.body.reference).not.to.equal(first.body.reference);
  });

  it('a lead reference stands for the contact', async () => {
    const { event, offer } = await bookableEvent();
    const lead = await server.request<any>('POST', '/api/reservations/customer-lead', { body: { ...contact(7), eventSlug: event.slug, guestCount: 2, bookingPath: 'DINNER_SHOW' }, headers: fromNewAddress() });
    expect(lead.status).to.equal(201);
    const res = await hold({ eventSlug: event.slug, offerCode: offer.code, guestCount: 2, leadReference: lead.body.leadReference });
    expect(res.status).to.equal(201);
    expect(res.body.contact).to.include({ name: 'Guest 7', email: 'guest7@example.com' });
    expect(res.body.locale).to.equal('vi');
    const row = await server.db.knex('reservations').where({ reference: res.body.reference }).first();
    expect(row.lead_id).to.be.a('string');
  });

  it('is rate-limited per client address', async () => {
    const { event } = await bookableEvent();
    const headers = { 'x-forwarded-for': '192.0.2.77' };
    const answers = [];
    for (let i = 0; i < 31; i++) answers.push(await server.request<any>('POST', '/api/public/reservations', { body: { eventSlug: event.slug, offerCode: 'NOPE', guestCount: 1, contact: contact() }, headers }));
    expect(answers.slice(0, 30).every((a) => a.status === 422)).to.equal(true);
    expect(answers[30].status).to.equal(429);
    expect(answers[30].headers.get('retry-after')).to.match(/^\d+$/);
  });
});
