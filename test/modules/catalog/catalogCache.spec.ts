import { expect } from 'chai';
import { expireHolds } from '../../../server/modules/booking/commands/expireHolds.ts';
import { CatalogCache } from '../../../server/modules/catalog/index.ts';
import { subscriber } from '../../../server/domain/events.ts';
import { startTestServer, SUPERUSER_TOKEN, type TestServer } from '../../helpers/server.ts';
import { bookableEvent, contact } from '../booking/factories.ts';
import { buildShow } from '../shows/factories.ts';
import { buildBlob } from '../storage/factories.ts';

/**
 * The public catalog from memory (issue 25 §7, server/modules/catalog/cache.ts): a repeated read costs no SQL and
 * keeps its ETag; after any catalog write, and any hold, confirmation, cancellation, resize or expiry, every read
 * answers what the database says (compared with a second app over the same database whose cache is off).
 */
describe('public catalog from memory: no stale answer after a write @db', () => {
  let server: TestServer;
  /** The same database, no cache: what a read must answer. */
  let oracle: TestServer;
  const staff = { 'x-api-token': SUPERUSER_TOKEN };
  let address = 0;
  const guest = () => ({ 'x-forwarded-for': `10.25.${(++address >> 8) & 255}.${address & 255}` });

  before(async () => {
    server = await startTestServer({ config: { trustProxy: true } });
    oracle = await startTestServer({ keepData: true, config: { catalogCacheEntries: 0 } });
  });
  after(async () => {
    await oracle.close();
    await server.close();
  });

  /** The statements a request runs on the cached server's database. */
  async function counted<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    const statements: string[] = [];
    const listen = (query: { sql: string }) => statements.push(query.sql);
    server.db.knex.on('query', listen);
    try {
      return { result: await work(), statements };
    } finally {
      server.db.knex.off('query', listen);
    }
  }

  const publicPaths = (event: { slug: string | null }, showSlug: string) => [
    `/api/public/show-events?show=${showSlug}`,
    `/api/public/show-events/${event.slug}`,
    '/api/public/shows?limit=100',
    `/api/public/shows/${showSlug}`,
  ];

  /** Every path: the cached server answers the oracle's body; answers the bodies. */
  async function sameAsDatabase(paths: string[]): Promise<unknown[]> {
    const bodies: unknown[] = [];
    for (const path of paths) {
      const [mine, truth] = [await server.request('GET', path), await oracle.request('GET', path)];
      expect(mine.status, `${path}: ${mine.text}`).to.equal(truth.status);
      if (mine.status !== 200) {
        // A problem (each with its own request id): the same one.
        expect(mine.body.code, path).to.equal(truth.body.code);
        bodies.push({ status: mine.status, code: mine.body.code });
        continue;
      }
      expect(mine.body, path).to.deep.equal(truth.body);
      expect(mine.headers.get('etag'), path).to.equal(truth.headers.get('etag'));
      bodies.push(mine.body);
    }
    return bodies;
  }

  it('answers a repeated read from memory: no SQL, the same body and ETag, 304 on revalidation', async () => {
    const { event, show } = await bookableEvent({ capacity: 40 });
    const path = `/api/public/show-events?show=${show.slug}`;
    const first = await server.request('GET', path);
    expect(first.status).to.equal(200);
    const etag = first.headers.get('etag')!;
    const again = await counted(() => server.request('GET', path));
    expect(again.statements, 'a kept answer reads nothing').to.deep.equal([]);
    expect(again.result.body).to.deep.equal(first.body);
    expect(again.result.headers.get('etag')).to.equal(etag);
    const revalidated = await counted(() => server.request('GET', path, { headers: { 'if-none-match': etag } }));
    expect(revalidated.result.status).to.equal(304);
    expect(revalidated.result.headers.get('etag')).to.equal(etag);
    expect(revalidated.statements).to.deep.equal([]);
    // The ETag is the body's, as before the cache: the uncached app gives the same one.
    expect((await oracle.request('GET', path)).headers.get('etag')).to.equal(etag);
    // Another locale, another answer (and its own Content-Language).
    const english = await server.request('GET', `${path}&locale=en`);
    expect(english.headers.get('content-language')).to.equal('en');
    expect((await server.request('GET', `/api/public/show-events/${event.slug}`)).status).to.equal(200);
  });

  it('serialises a kept answer once: a hit sends the bytes made with it (and hashed for its ETag)', async () => {
    const { show } = await bookableEvent({ capacity: 40 });
    const path = `/api/public/show-events?show=${show.slug}`;
    const first = await server.request('GET', path);
    expect(first.status).to.equal(200);
    const stringify = JSON.stringify;
    let pages = 0;
    JSON.stringify = function (this: unknown, ...args: Parameters<typeof stringify>) {
      const value = args[0] as { items?: unknown; timeZone?: unknown } | null;
      if (value && typeof value === 'object' && 'items' in value && 'timeZone' in value) pages += 1;
      return stringify.apply(this, args);
    } as typeof JSON.stringify;
    let again: Awaited<ReturnType<TestServer['request']>>;
    try {
      again = await server.request('GET', path);
    } finally {
      JSON.stringify = stringify;
    }
    expect(pages, 'the page was not serialised again').to.equal(0);
    expect(again.text).to.equal(first.text);
    expect(again.headers.get('etag')).to.equal(first.headers.get('etag'));
    expect(again.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(Number(again.headers.get('content-length'))).to.equal(Buffer.byteLength(first.text));
  });

  it('a refused write (rolled back) keeps the answers; an unknown slug is answered 404 and not kept', async () => {
    const { event, offer, show } = await bookableEvent({ capacity: 2 });
    const path = `/api/public/show-events/${event.slug}`;
    await server.request('GET', path);
    const refused = await server.request('POST', '/api/public/reservations', { headers: guest(), body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 3, contact: contact() } });
    expect(refused.body.code).to.equal('not_enough_seats');
    expect((await counted(() => server.request('GET', path))).statements).to.deep.equal([]);
    const size = server.app.context.catalogCache.size;
    expect((await server.request('GET', `/api/public/shows/${show.slug}-nope`)).status).to.equal(404);
    expect(server.app.context.catalogCache.size).to.equal(size);
  });

  describe('each kind of write: read → write → read answers what the database says', () => {
    let fixture: Awaited<ReturnType<typeof bookableEvent>>;
    let paths: string[];
    beforeEach(async () => {
      fixture = await bookableEvent({ capacity: 30 });
      paths = publicPaths(fixture.event, fixture.show.slug);
      // The factories wrote behind the app's back (staff would have gone through the commands).
      server.app.context.catalogCache.clear();
    });

    const holdSeats = async (guestCount = 4) => {
      const res = await server.request<any>('POST', '/api/public/reservations', {
        headers: guest(),
        body: { eventSlug: fixture.event.slug, offerCode: fixture.offer.code, guestCount, contact: contact(address) },
      });
      expect(res.status, res.text).to.equal(201);
      return res.body as { reference: string; accessToken: string };
    };
    const reservationId = async (reference: string) => (await server.db.knex('reservations').where({ reference }).first('id')).id as string;
    const staffWrite = async (method: string, path: string, body?: unknown) => {
      const res = await server.request(method, path, { headers: staff, body });
      expect(res.status, `${method} ${path}: ${res.text}`).to.be.oneOf([200, 201, 204]);
    };

    /** Reads (kept), writes, reads again: the same as the database, and `changed` of the paths changed. */
    async function check(write: () => Promise<unknown>, changed: number[] = [0, 1]) {
      const before = await sameAsDatabase(paths);
      // Kept: the second read costs nothing.
      expect((await counted(() => server.request('GET', paths[0]))).statements).to.deep.equal([]);
      await write();
      const after = await sameAsDatabase(paths);
      for (const index of changed) expect(after[index], `${paths[index]} changed`).to.not.deep.equal(before[index]);
    }

    it('a guest’s hold', () => check(() => holdSeats()));

    it('a staff phone booking', () =>
      check(() => staffWrite('POST', '/api/reservations', { eventId: fixture.event.id, offerCode: fixture.offer.code, guestCount: 3, contact: contact(90) })));

    it('a confirmation (the hold’s seats stay taken for good)', async () => {
      const held = await holdSeats();
      const id = await reservationId(held.reference);
      // A confirmed booking no longer expires: the next instant that changes the answer moved.
      await check(() => staffWrite('POST', `/api/reservations/${id}/confirm`), []);
      expect((await counted(() => server.request('GET', paths[1]))).statements).to.deep.equal([]);
    });

    it('a staff cancellation', async () => {
      const id = await reservationId((await holdSeats()).reference);
      await check(() => staffWrite('POST', `/api/reservations/${id}/cancel`, { reason: 'The guest called.' }));
    });

    it('a guest’s cancellation', async () => {
      const held = await holdSeats();
      await check(async () => {
        const res = await server.request('POST', `/api/public/reservations/${held.reference}/cancel`, { headers: { ...guest(), 'x-reservation-token': held.accessToken }, body: {} });
        expect(res.status, res.text).to.equal(200);
      });
    });

    it('a resize', async () => {
      const id = await reservationId((await holdSeats(2)).reference);
      await check(() => staffWrite('PATCH', `/api/reservations/${id}`, { guestCount: 6 }));
    });

    it('the hold expiry run', async () => {
      const held = await holdSeats();
      const id = await reservationId(held.reference);
      const row = await server.db.knex('reservations').where({ id }).first('hold_expires_at');
      const expiry = new Date(row.hold_expires_at).getTime();
      await sameAsDatabase(paths);
      const cache = server.app.context.catalogCache;
      expect(cache.size).to.be.greaterThan(0);
      // The run marks the hold EXPIRED (past its expiry) and publishes holds.expired: every answer is forgotten.
      expect(await expireHolds(server.app.context, new Date(expiry + 1000))).to.be.at.least(1);
      expect(cache.size).to.equal(0);
      await sameAsDatabase(paths);
    });

    it('a show’s change, and its unpublishing', async () => {
      await check(() => staffWrite('PATCH', `/api/shows/${fixture.show.id}`, { durationMinutes: 77 }), [0, 1, 2, 3]);
      await check(() => staffWrite('POST', `/api/shows/${fixture.show.id}/unpublish`), [0, 1, 2, 3]);
    });

    it('an event’s change, closing its sales, cancelling it', async () => {
      await check(() => staffWrite('PATCH', `/api/show-events/${fixture.event.id}`, { capacity: 12 }));
      await check(() => staffWrite('POST', `/api/show-events/${fixture.event.id}/close-sales`));
      await check(() => staffWrite('POST', `/api/show-events/${fixture.event.id}/cancel`, { reason: 'Storm' }));
    });

    it('the catalog’s own writes publish catalog.changed in their transaction, with the staff actor; a rolled-back one clears nothing', async () => {
      const seen: Array<{ entity: string; id: string | null; inTransaction: boolean; actor: unknown }> = [];
      const remove = server.app.context.events.attachForTest(
        subscriber({
          name: 'test.catalog-changed',
          event: 'catalog.changed',
          phase: 'in-transaction',
          order: 999,
          handle: (payload, { trx, actor }) => {
            seen.push({ entity: payload.entity, id: payload.id ?? null, inTransaction: trx.isTransaction === true, actor: typeof actor === 'string' ? actor : actor.authSource });
          },
        }),
      );
      try {
        const image = await buildBlob({ purpose: 'show-image' });
        await check(() => staffWrite('PATCH', `/api/shows/${fixture.show.id}`, { durationMinutes: 78 }), [0, 1, 2, 3]);
        await check(() => staffWrite('POST', `/api/show-events/${fixture.event.id}/close-sales`));
        await check(() => staffWrite('PATCH', `/api/offers/${fixture.offer.id}`, { pricePerGuestVnd: 1_111_000 }), [0, 1, 2, 3]);
        // A stored object's deletion (no transaction covers the store) is announced in a unit of work of its own.
        await sameAsDatabase(paths);
        expect(server.app.context.catalogCache.size).to.be.greaterThan(0);
        await staffWrite('DELETE', `/api/sudo/storage/blobs/${image.id}/object`);
        expect(server.app.context.catalogCache.size).to.equal(0);
        expect(seen).to.deep.equal([
          { entity: 'show', id: null, inTransaction: true, actor: 'api-token' },
          { entity: 'showEvent', id: null, inTransaction: true, actor: 'api-token' },
          { entity: 'offer', id: null, inTransaction: true, actor: 'api-token' },
          { entity: 'storageBlob', id: image.id, inTransaction: true, actor: 'api-token' },
        ]);
        // Refused (another show has the slug): published in the transaction, which rolls back: the answers stay.
        const other = await buildShow(); // a draft: no public answer names it
        await sameAsDatabase(paths);
        const refused = await server.request('PATCH', `/api/shows/${fixture.show.id}`, { headers: staff, body: { slug: other.slug } });
        expect([refused.status, refused.body.code]).to.deep.equal([409, 'slug_taken']);
        expect(seen).to.have.length(5);
        expect((await counted(() => server.request('GET', paths[0]))).statements).to.deep.equal([]);
      } finally {
        remove();
      }
    });

    it('an offer’s price, and the commercial setup', async () => {
      await check(() => staffWrite('PATCH', `/api/offers/${fixture.offer.id}`, { pricePerGuestVnd: 1_234_000 }), [0, 1, 2, 3]);
      const setup = (await server.request<any>('GET', '/api/commercial-setup', { headers: staff })).body;
      try {
        await check(() => staffWrite('PATCH', '/api/commercial-setup', { vatPercent: 9.5, limitedAvailabilityThreshold: 40 }), [0, 1, 2, 3]);
      } finally {
        await staffWrite('PATCH', '/api/commercial-setup', { vatPercent: setup.vatPercent, limitedAvailabilityThreshold: setup.limitedAvailabilityThreshold });
      }
    });
  });

  it('makes an answer once for the requests that ask while it is being made (unless a write came meanwhile)', async () => {
    const cache = new CatalogCache(server.db.knex, server.config.venueTimezone, undefined);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 30));
      return { n: loads };
    };
    const now = new Date();
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.answer('crowd', now, load)));
    expect(loads).to.equal(1);
    expect(new Set(answers.map((a) => a.etag)).size).to.equal(1);
    cache.clear();
    const first = cache.answer('crowd', now, load);
    cache.clear(); // a write while it is made: the next request does not share it
    const second = cache.answer('crowd', now, load);
    await Promise.all([first, second]);
    expect(loads).to.equal(3);
  });

  describe('the clock', () => {
    it('keeps an answer until the next instant that changes it: a hold’s expiry, then a booking cut-off', async () => {
      // Other specs' holds end at other instants: past here, so this hold's expiry is the next one.
      await server.db.knex('reservations').where('status', 'HELD').update({ hold_expires_at: new Date(Date.now() - 60_000) });
      const { event, offer } = await bookableEvent({ capacity: 30, days: 2 });
      const held = await server.request<any>('POST', '/api/public/reservations', { headers: guest(), body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 5, contact: contact(7) } });
      expect(held.status).to.equal(201);
      const expiry = new Date(held.body.holdExpiresAt).getTime();
      // A cache of its own over the same database, read with explicit instants (and no maximum age: the clock alone).
      const cache = new CatalogCache(server.db.knex, server.config.venueTimezone, undefined, { maxAgeMs: Number.POSITIVE_INFINITY });
      let loads = 0;
      const load = async () => ++loads;
      const now = Date.now();
      await cache.answer('k', new Date(now), load);
      await cache.answer('k', new Date(expiry - 1), load);
      expect(loads, 'kept until the hold expires').to.equal(1);
      await cache.answer('k', new Date(expiry), load);
      expect(loads, 'the hold’s seats are free at its expiry').to.equal(2);
      // Past every hold, the next instant is the earliest booking cut-off or start (or the venue's next midnight).
      await cache.answer('k', new Date(expiry + 1), load);
      expect(loads).to.equal(2);
      cache.clear();
      await cache.answer('k', new Date(expiry + 2), load);
      expect(loads, 'cleared').to.equal(3);
    });

    it('serves an answer no longer than its maximum age: a row changed behind the application’s back is seen by then', async () => {
      const { event } = await bookableEvent({ capacity: 30, days: 3 });
      const cache = new CatalogCache(server.db.knex, server.config.venueTimezone, undefined, { maxAgeMs: 2_000 });
      const load = async () => (await server.db.knex('show_events').where('id', event.id).first('capacity')).capacity as number;
      const now = Date.now();
      expect((await cache.answer('k', new Date(now), load)).body).to.equal(30);
      // psql, say: no notification, so the kept answer stands …
      await server.db.knex('show_events').where('id', event.id).update({ capacity: 31 });
      expect((await cache.answer('k', new Date(now + 1_999), load)).body).to.equal(30);
      // … until it is as old as the cache allows.
      expect((await cache.answer('k', new Date(now + 2_000), load)).body).to.equal(31);
      expect(server.config.catalogCacheMaxAgeSeconds, 'the default').to.equal(60);
    });

    it('the app serves a kept answer for CATALOG_CACHE_MAX_AGE_SECONDS at most', async () => {
      const { event } = await bookableEvent({ capacity: 30, days: 3 });
      const aged = await startTestServer({ keepData: true, config: { catalogCacheMaxAgeSeconds: 1 } });
      try {
        const path = `/api/public/show-events/${event.slug}`;
        const before = await aged.request<any>('GET', path);
        expect(before.status).to.equal(200);
        await server.db.knex('show_events').where('id', event.id).update({ capacity: 60 });
        const kept = await aged.request<any>('GET', path);
        expect(before.headers.get('etag')).to.be.a('string');
        expect(kept.headers.get('etag'), 'kept: nothing said the row changed').to.equal(before.headers.get('etag'));
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        const fresh = await aged.request<any>('GET', path);
        expect(fresh.headers.get('etag'), 'read again once a second old').not.to.equal(before.headers.get('etag'));
        expect(fresh.body).to.deep.equal((await oracle.request<any>('GET', path)).body);
      } finally {
        await aged.close();
      }
    });
  });
});
