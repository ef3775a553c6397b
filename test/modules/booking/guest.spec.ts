import { expect } from 'chai';
import { expireHolds } from '../../../server/modules/booking/commands/expireHolds.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { bookableEvent, contact } from './factories.ts';

let ipCounter = 0;
const fromNewAddress = () => ({ 'x-forwarded-for': `10.200.${(++ipCounter >> 8) & 255}.${ipCounter & 255}` });

describe('booking: the guest lead and the token routes', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({ config: { trustProxy: true } });
  });
  afterEach(() => server.close());

  const lead = (body: Record<string, unknown>, headers: Record<string, string> = fromNewAddress()) =>
    server.request<any>('POST', '/api/reservations/customer-lead', { body, headers });

  async function held(overrides: { days?: number; guestCount?: number } = {}) {
    const { event, offer } = await bookableEvent({ days: overrides.days });
    const res = await server.request<any>('POST', '/api/public/reservations', {
      body: { eventSlug: event.slug, offerCode: offer.code, guestCount: overrides.guestCount ?? 2, contact: contact() },
      headers: fromNewAddress(),
    });
    expect(res.status).to.equal(201);
    return { reference: res.body.reference as string, token: res.body.accessToken as string, event, body: res.body };
  }

  describe('POST /api/reservations/customer-lead', () => {
    it('upserts the customer by normalized e-mail and answers the same shape either way (no e-mail oracle)', async () => {
      const { event } = await bookableEvent();
      const first = await lead({ honorific: 'Ms', name: 'Lan', email: 'Lan@Example.com', phone: '+84 90 000 0000', locale: 'vi', eventSlug: event.slug, bookingPath: 'DINNER_SHOW', guestCount: 2, experienceType: 'STANDARD', analytics: { sessionId: 's1', distinctId: 'd1' } });
      const second = await lead({ name: 'Lan Nguyen', email: 'LAN@example.COM' });
      for (const res of [first, second]) {
        expect(res.status).to.equal(201);
        expect(Object.keys(res.body).sort()).to.deep.equal(['expiresAt', 'leadReference']);
        expect(res.body.leadReference).to.match(/^L[A-Za-z0-9_-]{32}$/);
      }
      expect(first.body.leadReference).not.to.equal(second.body.leadReference);
      const customers = await server.db.knex('customers').select('*');
      expect(customers).to.have.length(1);
      // The first contact made the customer; a later guest's contact never overwrites it (issue 21 §1) and is
      // kept on its own lead instead.
      expect(customers[0]).to.include({ name: 'Lan', email_normalized: 'lan@example.com', honorific: 'Ms', phone: '+84 90 000 0000', locale: 'vi' });
      const leads = await server.db.knex('customer_leads').orderBy('created_at').select('*');
      expect(leads).to.have.length(2);
      expect(leads[1]).to.include({ name: 'Lan Nguyen', email: 'LAN@example.COM', phone: null, honorific: null });
      expect(leads[0]).to.include({ show_event_id: event.id, booking_path: 'DINNER_SHOW', guest_count: 2, experience_type: 'STANDARD', analytics_session_id: 's1', analytics_distinct_id: 'd1' });
      expect(JSON.stringify(leads)).not.to.include(first.body.leadReference);
      const emails = await server.db.knex('customer_emails').select('*');
      expect(emails).to.have.length(1);
    });

    it('a soft-deleted customer is not revived: a new live customer is made', async () => {
      await lead({ name: 'Old', email: 'gone@example.com', phone: '+84 1' });
      await server.db.knex('customers').update({ is_deleted: true, deleted_at: new Date() });
      expect((await lead({ name: 'New', email: 'gone@example.com' })).status).to.equal(201);
      const rows = await server.db.knex('customers').orderBy('created_at').select('name', 'phone', 'is_deleted');
      expect(rows).to.deep.equal([
        { name: 'Old', phone: '+84 1', is_deleted: true },
        { name: 'New', phone: null, is_deleted: false },
      ]);
    });

    it('validates (400 with field pointers) and is rate-limited per address (429)', async () => {
      const bad = await lead({ name: 'X', email: 'not-an-email', guestCount: 0 });
      expect(bad.status).to.equal(400);
      expect(bad.body.errors.map((e: { path: string }) => e.path)).to.include.members(['body/email', 'body/guestCount']);
      const headers = { 'x-forwarded-for': '198.51.100.9' };
      const codes = [];
      for (let i = 0; i < 21; i++) codes.push((await lead({ name: 'X', email: `x${i}@example.com` }, headers)).status);
      expect(codes.slice(0, 20).every((c) => c === 201)).to.equal(true);
      expect(codes[20]).to.equal(429);
    });
  });

  describe('GET /api/public/reservations/{reference}', () => {
    it('answers the reservation with its token; a wrong, missing or foreign token is the same 404 as an unknown reference', async () => {
      const mine = await held();
      const theirs = await held();
      const get = (reference: string, token?: string) =>
        server.request<any>('GET', `/api/public/reservations/${reference}`, { headers: token === undefined ? {} : { 'x-reservation-token': token } });
      const ok = await get(mine.reference.toLowerCase(), mine.token);
      expect(ok.status).to.equal(200);
      expect(ok.body).to.include({ reference: mine.reference, status: 'HELD', canCancel: true });
      expect(ok.body).not.to.have.property('accessToken');
      // The hold's answer (built from the rows it wrote, without reading them back) is what a read answers.
      const { accessToken: _token, ...asCreated } = mine.body;
      expect(ok.body).to.deep.equal(asCreated);
      expect(ok.headers.get('cache-control')).to.equal('no-store');
      const unknown = await get('VN-222222', mine.token);
      for (const res of [await get(mine.reference), await get(mine.reference, 'wrong-token'), await get(mine.reference, theirs.token), unknown]) {
        expect(res.status).to.equal(404);
        expect(res.body.code).to.equal(unknown.body.code);
        expect(res.body.detail).to.equal(unknown.body.detail);
      }
    });

    it('a hold past its expiry reads EXPIRED at once', async () => {
      const mine = await held();
      await server.db.knex('reservations').update({ hold_expires_at: new Date(Date.now() - 1000) });
      const res = await server.request<any>('GET', `/api/public/reservations/${mine.reference}`, { headers: { 'x-reservation-token': mine.token } });
      expect(res.body).to.include({ status: 'EXPIRED', holdExpiresAt: null, canCancel: false });
    });
  });

  describe('POST /api/public/reservations/{reference}/cancel', () => {
    const cancel = (reference: string, token?: string, body?: unknown) =>
      server.request<any>('POST', `/api/public/reservations/${reference}/cancel`, { headers: token ? { 'x-reservation-token': token } : {}, body });

    it('cancels a hold inside the window, freeing its seats; again is the same answer (idempotent)', async () => {
      const mine = await held({ guestCount: 3 });
      const first = await cancel(mine.reference, mine.token, { reason: 'Flight moved' });
      expect(first.status).to.equal(200);
      expect(first.body).to.include({ status: 'CANCELLED', canCancel: false });
      expect(first.body.cancelledAt).to.be.a('string');
      const row = await server.db.knex('reservations').where({ reference: mine.reference }).first();
      expect(row).to.include({ status: 'CANCELLED', cancelled_by: 'GUEST', cancellation_reason: 'Flight moved' });
      const again = await cancel(mine.reference, mine.token);
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal(first.body);
      const event = await server.request<any>('GET', `/api/public/show-events/${mine.event.slug}`);
      expect(event.body.seatsLeft).to.equal(120);
    });

    it('404 without the right token (nothing changes); 409 cancellation_window_closed; 409 reservation_not_cancellable', async () => {
      const mine = await held({ days: 1 });
      expect((await cancel(mine.reference)).status).to.equal(404);
      expect((await cancel(mine.reference, 'nope')).status).to.equal(404);
      expect((await server.db.knex('reservations').first('status')).status).to.equal('HELD');
      // The event is a day away; the window closes 48 h before it.
      const closed = await cancel(mine.reference, mine.token);
      expect(closed.status).to.equal(409);
      expect(closed.body.code).to.equal('cancellation_window_closed');
      const other = await held({ days: 10 });
      await server.db.knex('reservations').where({ reference: other.reference }).update({ status: 'CHECKED_IN', hold_expires_at: null });
      expect((await cancel(other.reference, other.token)).body.code).to.equal('reservation_not_cancellable');
      await server.db.knex('reservations').where({ reference: other.reference }).update({ status: 'HELD', hold_expires_at: new Date(Date.now() - 1000) });
      expect((await cancel(other.reference, other.token)).body.code).to.equal('reservation_not_cancellable');
    });
  });

  describe('hold expiry (expireHolds)', () => {
    it('marks HELD reservations past their hold EXPIRED, and nothing else; again does nothing', async () => {
      const a = await held();
      const b = await held();
      const c = await held();
      const knex = server.db.knex;
      await knex('reservations').where({ reference: a.reference }).update({ hold_expires_at: new Date(Date.now() - 1000) });
      await knex('reservations').where({ reference: c.reference }).update({ status: 'CONFIRMED', hold_expires_at: new Date(Date.now() - 1000) });
      expect(await expireHolds(server.app.context)).to.equal(1);
      expect(await expireHolds(server.app.context)).to.equal(0);
      const statuses = Object.fromEntries((await knex('reservations').select('reference', 'status')).map((r) => [r.reference, r.status]));
      expect(statuses).to.deep.equal({ [a.reference]: 'EXPIRED', [b.reference]: 'HELD', [c.reference]: 'CONFIRMED' });
    });
  });
});
