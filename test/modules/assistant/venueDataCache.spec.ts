import { expect } from 'chai';
import { createTools } from '../../../server/assistant/tools.ts';
import { createVenueData, type VenueData } from '../../../server/assistant/venueData.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { bookableEvent, contact } from '../booking/factories.ts';

/**
 * Tool results cached (issue 24 §7): across turns the assistant-safe reads are revalidated with their ETag (a 304
 * reuses the kept answer, a change is fetched anew); within a turn a repeated call is made once.
 */
describe('assistant: tool results cached within a turn and revalidated across turns', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  function recording() {
    const seen: Array<{ url: string; ifNoneMatch: string | null; status: number }> = [];
    const fetcher: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      seen.push({ url: String(input), ifNoneMatch: new Headers(init?.headers).get('if-none-match'), status: response.status });
      return response;
    };
    return { seen, fetcher };
  }

  it('asks again with If-None-Match: an unchanged answer is a 304 that reuses the kept one, a changed one is fetched', async () => {
    const { event, offer } = await bookableEvent({ capacity: 40 });
    const { seen, fetcher } = recording();
    const data = createVenueData({ baseUrl: () => server.baseUrl, timeoutMs: 5000, fetch: fetcher });
    const first = (await data.events('en', {})) as { items: Array<{ eventSlug: string; seatsLeft: number | null }> };
    const again = await data.events('en', {});
    expect(seen.map((s) => s.status)).to.deep.equal([200, 304]);
    expect(seen[0].ifNoneMatch).to.equal(null);
    expect(seen[1].ifNoneMatch).to.match(/^"/);
    expect(again).to.deep.equal(first);

    // Seats change: the kept answer is stale, and the revalidation says so.
    const held = await server.request('POST', '/api/public/reservations', { body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 3, contact: contact(5) } });
    expect(held.status).to.equal(201);
    const after = (await data.events('en', {})) as typeof first;
    expect(seen.map((s) => s.status)).to.deep.equal([200, 304, 200]);
    const seats = (answer: typeof first) => answer.items.find((item) => item.eventSlug === event.slug)?.seatsLeft;
    expect(seats(after)).to.equal(seats(first)! - 3);
  });

  it('keeps at most cacheEntries answers (the least recently used goes), and none with 0', async () => {
    await bookableEvent();
    const one = recording();
    const small = createVenueData({ baseUrl: () => server.baseUrl, timeoutMs: 5000, fetch: one.fetcher, cacheEntries: 1 });
    await small.routes('en');
    await small.routes('vi');
    await small.routes('en'); // pushed out by vi
    await small.routes('en');
    expect(one.seen.map((s) => s.status)).to.deep.equal([200, 200, 200, 304]);
    const none = recording();
    const uncached = createVenueData({ baseUrl: () => server.baseUrl, timeoutMs: 5000, fetch: none.fetcher, cacheEntries: 0 });
    await uncached.routes('en');
    await uncached.routes('en');
    expect(none.seen.map((s) => [s.status, s.ifNoneMatch])).to.deep.equal([
      [200, null],
      [200, null],
    ]);
  });

  it('within a turn, the same call with the same input reaches the venue data once; a failed one is asked again', async () => {
    const calls: string[] = [];
    let failRoutes = true;
    const spy: VenueData = {
      shows: async (locale) => (calls.push(`shows ${locale}`), { items: [] }),
      events: async (locale, query) => (calls.push(`events ${locale} ${JSON.stringify(query)}`), { items: [] }),
      availability: async () => ({}),
      bookingOptions: async () => ({}),
      routes: async (locale) => {
        calls.push(`routes ${locale}`);
        if (failRoutes) {
          failRoutes = false;
          throw new Error('down');
        }
        return { home: '/' };
      },
      knowledge: async () => ({ items: [] }),
    };
    const tools = createTools(spy, 'en');
    const options = { toolCallId: 't', messages: [] };
    await tools.listShows.execute!({}, options);
    await tools.listShows.execute!({}, options);
    await tools.listEvents.execute!({ show: 'a' }, options);
    await tools.listEvents.execute!({ show: 'a' }, options);
    await tools.listEvents.execute!({ show: 'b' }, options);
    await Promise.resolve(tools.getSiteRoutes.execute!({}, options)).catch(() => undefined);
    await tools.getSiteRoutes.execute!({}, options);
    await tools.getSiteRoutes.execute!({}, options);
    expect(calls).to.deep.equal(['shows en', 'events en {"show":"a"}', 'events en {"show":"b"}', 'routes en', 'routes en']);
    // A new turn starts afresh.
    await createTools(spy, 'en').listShows.execute!({}, options);
    expect(calls.filter((c) => c === 'shows en')).to.have.length(2);
  });
});
