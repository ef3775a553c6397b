import { expect } from 'chai';
import { bookableEvent, contact } from '../booking/factories.ts';
import { catalogSpec } from '../shows/catalog.ts';

/**
 * Issue 21 §4: the waiting-list join is the spec's `POST /api/waitlist` (public, beside the staff's
 * `GET /api/waitlist`); the old `POST /api/public/waitlist` stays one release as a deprecated alias: the same
 * handler (same answers, same per-address limit), plus `Deprecation` and `Link` on every answer.
 */
describe('waitlist: POST /api/waitlist and its deprecated alias POST /api/public/waitlist', () => {
  const spec = catalogSpec({ config: { trustProxy: true } });
  const as = spec.as;
  let ip = 1;
  const address = () => ({ 'x-forwarded-for': `100.66.${(ip >> 8) & 255}.${ip++ & 255}` });
  const body = (eventSlug: string, n: number) => ({ eventSlug, guestCount: 3, name: `Path ${n}`, email: `path${n}@example.com`, locale: 'en' });

  async function soldOut() {
    const target = await bookableEvent({ capacity: 4 });
    const full = await as(address()).post('/api/public/reservations', { eventSlug: target.event.slug, offerCode: target.offer.code, guestCount: 4, contact: contact(ip) });
    expect(full.status).to.equal(201);
    return target;
  }
  const expectDeprecated = (res: { headers: Headers }) => {
    expect(res.headers.get('deprecation')).to.match(/^@\d+$/);
    expect(res.headers.get('link')).to.equal('</api/waitlist>; rel="successor-version"');
  };

  it('joins at POST /api/waitlist (public), while GET /api/waitlist stays the staff list', async () => {
    const target = await soldOut();
    const joined = await as(address()).post('/api/waitlist', body(target.event.slug, 1));
    expect(joined.status, JSON.stringify(joined.body)).to.equal(201);
    expect(joined.body).to.include({ eventSlug: target.event.slug, guestCount: 3 });
    expect(joined.headers.get('cache-control')).to.equal('no-store');
    expect(joined.headers.get('deprecation')).to.equal(null);
    expect((await as({}).get('/api/waitlist')).status).to.equal(401);
    const listed = await as(spec.callers.staff).get(`/api/waitlist?eventId=${target.event.id}`);
    expect(listed.status).to.equal(200);
    expect(listed.body.items.map((e: any) => e.email)).to.deep.equal(['path1@example.com']);
  });

  it('answers the old path exactly as the new one, with Deprecation and a Link to POST /api/waitlist, refusals included', async () => {
    const target = await soldOut();
    const now = await as(address()).post('/api/waitlist', body(target.event.slug, 2));
    const before = await as(address()).post('/api/public/waitlist', body(target.event.slug, 3));
    expect(before.status, JSON.stringify(before.body)).to.equal(now.status);
    expect(Object.keys(before.body).sort()).to.deep.equal(Object.keys(now.body).sort());
    expect(before.body).to.include({ eventSlug: target.event.slug, guestCount: 3 });
    expectDeprecated(before);
    expect(before.headers.get('cache-control')).to.equal('no-store');

    const unknown = await as(address()).post('/api/public/waitlist', body('no-such-event-2030-01-01-1930', 4));
    expect(unknown.status).to.equal(404);
    expectDeprecated(unknown);
    const invalid = await as(address()).post('/api/public/waitlist', { eventSlug: target.event.slug, guestCount: 0 });
    expect(invalid.status).to.equal(400);
    expectDeprecated(invalid);

    const listed = await as(spec.callers.staff).get(`/api/waitlist?eventId=${target.event.id}`);
    expect(listed.body.items.map((e: any) => e.email)).to.deep.equal(['path2@example.com', 'path3@example.com']);
  });

  it('counts both paths against one per-address limit (one handler)', async () => {
    const target = await soldOut();
    const fixed = { 'x-forwarded-for': '100.66.250.9' };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const path = i % 2 ? '/api/public/waitlist' : '/api/waitlist';
      statuses.push((await as(fixed).post(path, body(target.event.slug, 100 + i))).status);
    }
    expect(statuses.slice(0, 10).every((status) => status < 300), statuses.join(',')).to.equal(true);
    expect(statuses[10]).to.equal(429);
  });
});
