import { expect } from 'chai';
import { startFakePostHog, type FakePostHog } from '../../helpers/fakePosthog.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { bookableEvent, contact } from './factories.ts';

let ipCounter = 0;
const fromNewAddress = () => ({ 'x-forwarded-for': `10.203.${(++ipCounter >> 8) & 255}.${ipCounter & 255}` });

/**
 * Issue 32 §4: nothing after a commit may turn a success into an error. With analytics on, the guest's hold reads
 * the reservation again once it has committed (the `reservation created` event's properties); when that read
 * fails, the hold exists all the same, so the guest gets its 201 and the failure is logged.
 */
describe('booking: after-commit work never fails a hold that was made @db', () => {
  let server: TestServer;
  let posthog: FakePostHog;
  before(async () => {
    posthog = await startFakePostHog();
    server = await startTestServer({ config: { trustProxy: true, analyticsEnabled: true, posthogApiKey: 'phc_test', posthogHost: posthog.url } });
  });
  after(async () => {
    await server.close();
    await posthog.close();
  });

  /** Makes every statement `matches` picks fail (a knex `query` listener that throws rejects that query). */
  function failing(matches: (sql: string) => boolean) {
    const seen: string[] = [];
    const listener = (query: { sql: string }) => {
      if (!matches(query.sql)) return;
      seen.push(query.sql);
      throw new Error('injected: the database went away after the commit');
    };
    server.db.knex.on('query', listener);
    return { seen, restore: () => server.db.knex.removeListener('query', listener) };
  }
  // The analytics read (booking/queries.ts reservationEventRow): the only statement that joins the referral links.
  const analyticsRead = (sql: string) => /"referral_links" as "rl"/.test(sql) && /analytics_distinct_id/.test(sql);

  it('POST /api/public/reservations answers 201 with the hold when the post-commit analytics read fails', async () => {
    const { event, offer } = await bookableEvent();
    const injected = failing(analyticsRead);
    let res;
    try {
      res = await server.request<any>('POST', '/api/public/reservations', {
        body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: contact() },
        headers: fromNewAddress(),
      });
    } finally {
      injected.restore();
    }
    // The read did run, after the commit, and failed.
    expect(injected.seen, 'the analytics read ran').to.have.length(1);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ status: 'HELD', guestCount: 2 });
    expect(res.body.accessToken).to.be.a('string');
    const row = await server.db.knex('reservations').where({ reference: res.body.reference }).first('status', 'guest_count');
    expect(row).to.deep.equal({ status: 'HELD', guest_count: 2 });
    // The guest can open it with the token it was given.
    const opened = await server.request<any>('GET', `/api/public/reservations/${res.body.reference}`, { headers: { 'x-reservation-token': res.body.accessToken } });
    expect(opened.status).to.equal(200);
    // The failure is logged, not thrown.
    const logged = server.logs.find((line) => line.msg === 'a business event was not sent (after its command committed)');
    expect(logged, 'the failure is logged').to.not.equal(undefined);
    expect(logged).to.include({ event: 'reservation created' });
  });

  it('a throwing analytics client does not fail the hold either', async () => {
    const { event, offer } = await bookableEvent();
    const analytics = server.app.context.analytics;
    const capture = analytics.capture;
    analytics.capture = () => {
      throw new Error('injected: the analytics client threw');
    };
    let res;
    try {
      res = await server.request<any>('POST', '/api/public/reservations', {
        body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 1, contact: contact() },
        headers: fromNewAddress(),
      });
    } finally {
      analytics.capture = capture;
    }
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(await server.db.knex('reservations').where({ reference: res.body.reference }).first('status')).to.deep.equal({ status: 'HELD' });
  });
});
