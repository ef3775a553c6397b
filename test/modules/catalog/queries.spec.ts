import { expect } from 'chai';
import { addDays, localDateRange, localToday } from '../../../server/domain/venueTime.ts';
import { dateWindow } from '../../../server/modules/catalog/queries.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { local, ZONE } from './helpers.ts';
import { buildFulfillmentItem } from '../fulfillment/factories.ts';
import { buildOffer } from '../offers/factories.ts';
import { buildEvent, ON_SALE } from '../showEvents/factories.ts';
import { buildShow, type ShowRow } from '../shows/factories.ts';

/**
 * The public reads are a fixed number of SQL statements whatever the number of events: the events with their
 * show (and seats taken) in one, the commercial setup with every offer and its items in the other. Counted on
 * the app's own knex ('query' events) for 3 events and for 60.
 */
describe('public catalog: queries per read', () => {
  let server: TestServer;
  let shows: ShowRow[];
  const today = localToday(ZONE);

  before(async () => {
    // The statements a read costs when it reaches the database: the catalog cache off (catalogCache.spec.ts
    // shows a kept answer costs none).
    server = await startTestServer({ config: { catalogCacheEntries: 0 } });
    const knex = server.db.knex;
    shows = [await buildShow({ status: 'PUBLISHED', slug: 'one' }), await buildShow({ status: 'PUBLISHED', slug: 'two' }), await buildShow({ status: 'PUBLISHED', slug: 'three' })];
    const meal = await buildFulfillmentItem();
    const drink = await buildFulfillmentItem({ kind: 'DRINK' });
    for (const show of shows) await buildOffer({ showId: show.id, pricePerGuestVnd: 1_000_000, items: [{ id: meal.id }, { id: drink.id, quantity: 2 }] });
    await buildOffer({ pricePerGuestVnd: 1_000_000, items: [{ id: drink.id }] });
  });

  after(async () => {
    await server.close();
  });

  /** SQL statements the app's knex ran while answering `path` (200 required). */
  async function statements(path: string): Promise<string[]> {
    const sql: string[] = [];
    const listen = (query: { sql: string }) => {
      if (!/pgboss/.test(query.sql)) sql.push(query.sql);
    };
    server.db.knex.on('query', listen);
    try {
      const res = await server.request('GET', path);
      expect(res.status, res.text).to.equal(200);
      return sql;
    } finally {
      server.db.knex.off('query', listen);
    }
  }

  /** `count` events spread over the shows, one per local day from tomorrow, at 19:30. */
  async function addEvents(from: number, count: number) {
    for (let i = from; i < from + count; i++) await buildEvent(shows[i % 3], { ...ON_SALE, startsAt: local(addDays(today, 1 + i), '19:30') });
  }

  it('answers the upcoming events in two statements for 3 events and for 60', async () => {
    await addEvents(0, 3);
    const few = await statements('/api/public/show-events?limit=100&to=' + addDays(today, 100));
    const fewBody = (await server.request('GET', '/api/public/show-events?limit=100&to=' + addDays(today, 100))).body;
    expect(fewBody.items).to.have.length(3);
    expect(fewBody.items[0].offerCodes).to.have.length(2);

    await addEvents(3, 57);
    const many = await statements('/api/public/show-events?limit=100&to=' + addDays(today, 100));
    const manyBody = (await server.request('GET', '/api/public/show-events?limit=100&to=' + addDays(today, 100))).body;
    expect(manyBody.items).to.have.length(60);
    expect(manyBody.items.every((e: any) => e.offerCodes.length === 2)).to.equal(true);
    expect(manyBody.offers).to.have.length(4);
    expect(manyBody.offers.every((o: any) => o.items.length >= 1)).to.equal(true);

    expect(few).to.have.length(2);
    expect(many).to.have.length(few.length);
  });

  it('answers the show list in two statements and a show page in three, whatever the events', async () => {
    expect(await statements('/api/public/shows')).to.have.length(2);
    expect(await statements('/api/public/shows/one')).to.have.length(3);
    const event = (await server.request('GET', '/api/public/show-events?limit=1')).body.items[0];
    expect(await statements(`/api/public/show-events/${event.slug}`)).to.have.length(2);
  });
});

/** The window is resolved for every read, so it is kept (queries.ts); kept or not, it is the venue's day's. */
describe('public catalog: the date window', () => {
  it('moves with the venue’s midnight, not the server’s', () => {
    for (const zone of [ZONE, 'America/New_York', 'Pacific/Kiritimati']) {
      const date = '2027-03-14'; // a DST change in New York
      const { start } = localDateRange(date, date, zone);
      const before = dateWindow({}, zone, new Date(start.getTime() - 1));
      const at = dateWindow({}, zone, start);
      const again = dateWindow({}, zone, new Date(start.getTime() + 1));
      expect(before.from, zone).to.equal(addDays(date, -1));
      expect(at.from, zone).to.equal(date);
      expect(again).to.deep.equal(at);
      expect(at.to).to.equal(addDays(date, 56));
      expect(at.start.getTime()).to.equal(start.getTime());
      expect(at.end.getTime()).to.equal(localDateRange(addDays(date, 56), addDays(date, 56), zone).end.getTime());
      // Back before midnight (a clock set back): yesterday's window again.
      expect(dateWindow({}, zone, new Date(start.getTime() - 1))).to.deep.equal(before);
    }
  });

  it('answers given dates whatever the day, each call its own instants, and refuses a bad range every time', () => {
    const first = dateWindow({ from: '2027-01-01', to: '2027-01-31' }, ZONE, new Date('2027-05-01T00:00:00Z'));
    first.start.setTime(0);
    const second = dateWindow({ from: '2027-01-01', to: '2027-01-31' }, ZONE, new Date('2027-09-01T00:00:00Z'));
    expect(second.start.getTime()).to.equal(localDateRange('2027-01-01', '2027-01-01', ZONE).start.getTime());
    for (let i = 0; i < 2; i++) {
      expect(() => dateWindow({ from: '2027-02-01', to: '2027-01-31' }, ZONE, new Date())).to.throw('`to` is before `from`');
    }
  });
});
