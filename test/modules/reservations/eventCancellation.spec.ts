import { expect } from 'chai';
import { capturedEvents, startFakePostHog, type FakePostHog } from '../../helpers/fakePosthog.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { countRows } from '../../helpers/accounts.ts';
import { bookableEvent, contact } from '../booking/factories.ts';
import { buildPayment } from '../payments/factories.ts';
import { guestHold } from './helpers.ts';
import { catalogCallers, type CatalogCallers, requestsAs } from '../shows/catalog.ts';

/**
 * The reservations' part of the show-event cancellation flow, through the existing route
 * (POST /api/show-events/{id}/cancel), and the business events staff moves send (spec §6.1–6.2), read from a
 * local fake PostHog.
 */
describe('reservations: show-event cancellation and business events', () => {
  let server: TestServer;
  let posthog: FakePostHog;
  let callers: CatalogCallers;
  before(async () => {
    posthog = await startFakePostHog();
    server = await startTestServer({ config: { trustProxy: true, analyticsEnabled: true, posthogApiKey: 'phc_test', posthogHost: posthog.url } });
    callers = await catalogCallers();
  });
  after(async () => {
    await server.close();
    await posthog.close();
  });
  const knex = () => server.db.knex;
  const admin = () => requestsAs(server, callers.admin);
  const staff = () => requestsAs(server, callers.staff);

  /** Every business event received so far (the app's analytics buffer flushed first). */
  async function events() {
    await server.app.context.analytics.flush();
    return capturedEvents(posthog.requests);
  }

  it('cancels the event’s HELD and CONFIRMED reservations by SYSTEM, e-mails each guest in their language, once @db', async () => {
    const { event, offer } = await bookableEvent({ price: 1_000_000 });
    const held = await guestHold(server, event, offer, 2, { ...contact(1), locale: 'vi' });
    const confirmed = await guestHold(server, event, offer, 3, { ...contact(2), locale: 'en' });
    const expired = await guestHold(server, event, offer, 2, contact(3));
    const checkedIn = await guestHold(server, event, offer, 2, contact(4));
    await staff().post(`/api/reservations/${confirmed}/confirm`);
    await buildPayment(confirmed, { amount: 3_000_000, gateway: 'CASH', refundedVnd: 500_000, status: 'PARTIALLY_REFUNDED' });
    await knex()('reservations').where({ id: expired }).update({ hold_expires_at: new Date(Date.now() - 1000) });
    await knex()('reservations').where({ id: checkedIn }).update({ status: 'CHECKED_IN', hold_expires_at: null, checked_in_at: new Date() });
    const other = await bookableEvent();
    const untouched = await guestHold(server, other.event, other.offer, 2, contact(5));

    const res = await admin().post(`/api/show-events/${event.id}/cancel`, { reason: 'Stage flooded' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.hooks).to.deep.include({ name: 'reservations', summary: { cancelled: 2, paid: 1, emailed: 2 } });

    const rows = await knex()('reservations').whereIn('id', [held, confirmed, expired, checkedIn, untouched]).select('id', 'status', 'cancelled_by', 'cancellation_reason');
    const byId = Object.fromEntries(rows.map((r: { id: string }) => [r.id, r]));
    expect(byId[held]).to.include({ status: 'CANCELLED', cancelled_by: 'SYSTEM', cancellation_reason: 'Stage flooded' });
    expect(byId[confirmed]).to.include({ status: 'CANCELLED', cancelled_by: 'SYSTEM' });
    expect(byId[expired]).to.include({ status: 'HELD', cancelled_by: null });
    expect(byId[checkedIn]).to.include({ status: 'CHECKED_IN' });
    expect(byId[untouched]).to.include({ status: 'HELD' });

    const mails = await knex()('email_messages').where({ template: 'reservation-cancelled' }).orderBy('to_address').select('to_address', 'locale', 'customer_id', 'reservation_id', 'text_body', 'subject');
    expect(mails.map((m: { to_address: string; locale: string; reservation_id: string }) => [m.to_address, m.locale, m.reservation_id])).to.deep.equal([
      ['guest1@example.com', 'vi', held],
      ['guest2@example.com', 'en', confirmed],
    ]);
    expect(mails[0].subject).to.match(/^Đã hủy: /);
    expect(mails[0].text_body).not.to.include('hoàn lại');
    expect(mails[1].text_body).to.include('2,500,000 VND, will be refunded');
    expect(mails[1].text_body).not.to.include('Stage flooded');
    const jobs = await knex()('pgboss.job').where({ name: 'email.send' }).select('data');
    const queued = new Set(jobs.map((job: { data: { messageId: string } }) => job.data.messageId));
    const ids = await knex()('email_messages').where({ template: 'reservation-cancelled' }).pluck('id');
    expect(ids.every((id: string) => queued.has(id))).to.equal(true);

    const cancelledEvents = (await events()).filter((e) => e.event === 'reservation cancelled');
    const references = await knex()('reservations').whereIn('id', [held, confirmed]).pluck('reference');
    expect(cancelledEvents.map((e) => e.properties.reservation_reference).sort()).to.deep.equal([...references].sort());
    for (const e of cancelledEvents) expect(e.properties).to.include({ cancelled_by: 'SYSTEM', cancellation_cause: 'event_cancelled' });

    // Re-running the flow finds nothing left: no second cancellation, no second e-mail.
    const again = await admin().post(`/api/show-events/${event.id}/cancel`, { reason: 'again' });
    expect(again.body.alreadyCancelled).to.equal(true);
    expect(again.body.hooks).to.deep.include({ name: 'reservations', summary: { cancelled: 0, paid: 0, emailed: 0 } });
    expect(await countRows(knex(), 'email_messages', { template: 'reservation-cancelled' })).to.equal(2);
    expect(await knex()('reservations').where({ id: held }).first('cancellation_reason')).to.deep.equal({ cancellation_reason: 'Stage flooded' });
  });

  it('archive (DELETE) cancels the reservations too; a refused e-mail rolls the whole cancellation back', async () => {
    const { event, offer } = await bookableEvent();
    const good = await guestHold(server, event, offer, 2, contact(11));
    const bad = await guestHold(server, event, offer, 2, contact(12));
    // The e-mail goes to the reservation's own contact snapshot (issue 21), so that is where the bad address goes.
    await knex()('reservations').where({ id: bad }).update({ contact_email: 'no address' });
    const refused = await admin().delete(`/api/show-events/${event.id}`);
    expect(refused.status).to.equal(422);
    expect((await knex()('show_events').where({ id: event.id }).first('status')).status).to.equal('SCHEDULED');
    expect((await knex()('reservations').whereIn('id', [good, bad]).pluck('status')).sort()).to.deep.equal(['HELD', 'HELD']);
    expect(await countRows(knex(), 'email_messages', { reservation_id: good })).to.equal(0);

    await knex()('reservations').where({ id: bad }).update({ contact_email: 'guest12@example.com' });
    const archived = await admin().delete(`/api/show-events/${event.id}`);
    expect(archived.status).to.equal(200);
    expect(archived.body.hooks).to.deep.include({ name: 'reservations', summary: { cancelled: 2, paid: 0, emailed: 2 } });
    // No reason given: the reservations say why.
    expect((await knex()('reservations').where({ id: good }).first('cancellation_reason')).cancellation_reason).to.equal('The show event was cancelled.');
  });

  it('business events: `reservation created` for a phone booking, `reservation cancelled` for a staff cancel — no personal data', async () => {
    const { event, offer } = await bookableEvent();
    const created = await staff().post('/api/reservations', { eventId: event.id, offerCode: offer.code, guestCount: 2, contact: { ...contact(21), name: 'Secret Name' }, staffNotes: 'private note' });
    expect(created.status).to.equal(201);
    await staff().post(`/api/reservations/${created.body.id}/cancel`, { reason: 'private reason' });
    await staff().post(`/api/reservations/${created.body.id}/cancel`, { reason: 'again' });
    const mine = (await events()).filter((e) => e.properties?.reservation_reference === created.body.reference);
    expect(mine.map((e) => e.event)).to.deep.equal(['reservation created', 'reservation cancelled']);
    expect(mine[0].properties).to.include({ created_by: 'STAFF', booking_path: 'DINNER_SHOW', guest_count: 2, amount_vnd: created.body.price.totalVnd, has_referral: false });
    expect(mine[1].properties).to.include({ cancelled_by: 'STAFF' });
    const text = JSON.stringify(mine);
    for (const secret of ['Secret Name', 'guest21@example.com', '+84', 'private']) expect(text).not.to.include(secret);
  });
});
