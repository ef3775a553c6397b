import { expect } from 'chai';
import { errorPaths } from '../../helpers/accounts.ts';
import { buildApiKey, permissionMap } from '../../helpers/factories.ts';
import { asSuperuser, type TestServer } from '../../helpers/server.ts';
import { specServer } from './helpers.ts';
import { buildShow } from '../shows/factories.ts';

const BATCH = '/api/sudo/show-events/batch';

async function stored(server: TestServer, showId: string) {
  const rows = await server.db.knex('show_events').where('show_id', showId).orderBy('starts_at');
  return rows.map((row) => ({ slug: row.slug, startsAt: new Date(row.starts_at).toISOString(), doorsAt: row.doors_at && new Date(row.doors_at).toISOString(), salesOpen: row.sales_open, capacity: row.capacity }));
}

describe('showEvents: POST /api/sudo/show-events/batch (schedules, in VENUE_TIMEZONE)', () => {
  describe('in Asia/Ho_Chi_Minh (no daylight saving)', () => {
    const spec = specServer({ venueTimezone: 'Asia/Ho_Chi_Minh' });

    it('is superuser only, and never reachable with an API key (whatever its permissions)', async () => {
      const show = await buildShow({ status: 'PUBLISHED', code: 'ACCESS' });
      const body = { showCode: 'ACCESS', from: '2030-01-01', to: '2030-01-07', weekdays: [1], times: ['19:30'], capacity: 10 };
      expect((await spec.server.request('POST', BATCH, { body })).status).to.equal(401);
      expect((await spec.server.request('POST', BATCH, { headers: spec.as.admin, body })).status).to.equal(403);
      const key = await buildApiKey({ permissions: permissionMap('show-events:seed') });
      const denied = await spec.server.request('POST', BATCH, { headers: { 'x-api-key': key.key }, body });
      expect([denied.status, denied.body.code]).to.deep.equal([403, 'api_key_not_allowed']);
      expect((await spec.server.request('POST', BATCH, { headers: spec.as.owner, body })).status).to.equal(200);
      expect(await stored(spec.server, show.id)).to.have.length(1);
    });

    it('creates a weekly pattern at local times, idempotently by slug', async () => {
      const show = await buildShow({ status: 'PUBLISHED', code: 'SGC', slug: 'saigon-cabaret' });
      // 2030-03-01 is a Friday: Fridays and Saturdays through the 10th are the 1st, 2nd, 8th and 9th.
      const body = { showCode: 'SGC', from: '2030-03-01', to: '2030-03-10', weekdays: [5, 6], times: ['21:45', '19:30'], capacity: 120, doorsMinutesBefore: 45, salesOpen: true };
      const res = await spec.server.request('POST', BATCH, { headers: asSuperuser, body });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ showId: show.id, created: 8, unchanged: 0 });
      expect(res.body.createdSlugs).to.deep.equal([
        'saigon-cabaret-2030-03-01-1930',
        'saigon-cabaret-2030-03-01-2145',
        'saigon-cabaret-2030-03-02-1930',
        'saigon-cabaret-2030-03-02-2145',
        'saigon-cabaret-2030-03-08-1930',
        'saigon-cabaret-2030-03-08-2145',
        'saigon-cabaret-2030-03-09-1930',
        'saigon-cabaret-2030-03-09-2145',
      ]);
      const rows = await stored(spec.server, show.id);
      expect(rows[0]).to.deep.equal({ slug: 'saigon-cabaret-2030-03-01-1930', startsAt: '2030-03-01T12:30:00.000Z', doorsAt: '2030-03-01T11:45:00.000Z', salesOpen: true, capacity: 120 });

      const again = await spec.server.request('POST', BATCH, { headers: asSuperuser, body });
      expect(again.body).to.deep.include({ created: 0, unchanged: 8, createdSlugs: [] });
      // A longer schedule over the same weeks adds only what is new; existing events stay as they are.
      await spec.server.db.knex('show_events').where('slug', 'saigon-cabaret-2030-03-01-1930').update({ capacity: 99 });
      const longer = await spec.server.request('POST', BATCH, { headers: asSuperuser, body: { ...body, showCode: undefined, showId: show.id, to: '2030-03-16', capacity: 150 } });
      expect(longer.body).to.deep.include({ created: 4, unchanged: 8 });
      const after = await stored(spec.server, show.id);
      expect(after).to.have.length(12);
      expect(after[0].capacity).to.equal(99);
      expect(after[11]).to.include({ slug: 'saigon-cabaret-2030-03-16-2145', capacity: 150 });
    });

    it('takes explicit dates inside the range (422 date_out_of_range naming the date outside it)', async () => {
      const show = await buildShow({ status: 'PUBLISHED', code: 'GALA', slug: 'gala' });
      const res = await spec.server.request('POST', BATCH, { headers: asSuperuser, body: { showId: show.id, from: '2030-12-24', to: '2030-12-31', dates: ['2030-12-31', '2030-12-24'], times: ['20:00'], capacity: 200 } });
      expect(res.body.createdSlugs).to.deep.equal(['gala-2030-12-24-2000', 'gala-2030-12-31-2000']);
      const outside = await spec.server.request('POST', BATCH, { headers: asSuperuser, body: { showId: show.id, from: '2030-12-24', to: '2030-12-31', dates: ['2030-12-25', '2031-01-01'], times: ['20:00'], capacity: 200 } });
      expect([outside.status, outside.body.code]).to.deep.equal([422, 'date_out_of_range']);
      expect(errorPaths(outside)).to.deep.equal(['body/dates/1']);
      expect(await stored(spec.server, show.id)).to.have.length(2);
    });

    it('creates events that have already started with sales closed', async () => {
      const show = await buildShow({ status: 'PUBLISHED', code: 'PAST' });
      await spec.server.request('POST', BATCH, { headers: asSuperuser, body: { showId: show.id, from: '2020-01-01', to: '2020-01-01', dates: ['2020-01-01'], times: ['19:00'], capacity: 5, salesOpen: true } });
      expect((await stored(spec.server, show.id))[0]).to.include({ salesOpen: false, doorsAt: null });
    });

    it('refuses too many events (422 batch_too_large), too long a range (422 range_too_long), a backwards range, unknown and archived shows', async () => {
      await buildShow({ status: 'PUBLISHED', code: 'BIG' });
      const year = { showCode: 'BIG', from: '2030-01-01', to: '2030-12-31', weekdays: [1, 2, 3, 4, 5, 6, 7], capacity: 10 };
      const big = await spec.server.request('POST', BATCH, { headers: asSuperuser, body: { ...year, times: ['12:00', '17:00', '21:00'] } });
      expect([big.status, big.body.code]).to.deep.equal([422, 'batch_too_large']);
      const long = await spec.server.request('POST', BATCH, { headers: asSuperuser, body: { ...year, to: '2031-01-02', weekdays: [1], times: ['12:00'] } });
      expect([long.status, long.body.code]).to.deep.equal([422, 'range_too_long']);
      const fullYear = await spec.server.request('POST', BATCH, { headers: asSuperuser, body: { ...year, to: '2031-01-01', weekdays: [3], times: ['12:00'] } });
      expect(fullYear.body.created).to.equal(53); // 366 days from a Tuesday hold 53 Wednesdays
      const backwards = await spec.server.request('POST', BATCH, { headers: asSuperuser, body: { ...year, from: '2030-02-01', to: '2030-01-01', times: ['12:00'] } });
      expect([backwards.status, backwards.body.code]).to.deep.equal([422, 'invalid_date_range']);
      const unknown = await spec.server.request('POST', BATCH, { headers: asSuperuser, body: { ...year, showCode: 'NOPE', to: '2030-01-07', times: ['12:00'] } });
      expect([unknown.status, unknown.body.code]).to.deep.equal([422, 'unknown_show']);
      expect(errorPaths(unknown)).to.deep.equal(['body/showCode']);
      await buildShow({ code: 'GONE', status: 'ARCHIVED' });
      const archived = await spec.server.request('POST', BATCH, { headers: asSuperuser, body: { ...year, showCode: 'GONE', to: '2030-01-07', times: ['12:00'] } });
      expect([archived.status, archived.body.code]).to.deep.equal([409, 'show_archived']);
    });

    it('validates the schedule (400): one of dates and weekdays, one of showId and showCode, times as HH:mm, ISO weekdays', async () => {
      const base = { showCode: 'SGC', from: '2030-01-01', to: '2030-01-07', times: ['19:30'], capacity: 10 };
      for (const [body, field] of [
        [{ ...base }, 'body/dates'],
        [{ ...base, weekdays: [1], dates: ['2030-01-01'] }, 'body'],
        [{ ...base, showId: '9a7b6c5d-4e3f-4a1b-8c2d-1e0f9a8b7c6d', weekdays: [1] }, 'body'],
        [{ ...base, weekdays: [0] }, 'body/weekdays/0'],
        [{ ...base, weekdays: [8] }, 'body/weekdays/0'],
        [{ ...base, weekdays: [1], times: ['7:30'] }, 'body/times/0'],
        [{ ...base, weekdays: [1], times: ['24:00'] }, 'body/times/0'],
        [{ ...base, weekdays: [1], from: '2030-02-30' }, 'body/from'],
        [{ ...base, weekdays: [1], capacity: 0 }, 'body/capacity'],
      ] as const) {
        const res = await spec.server.request('POST', BATCH, { headers: asSuperuser, body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(errorPaths(res), JSON.stringify(body)).to.include(field);
      }
    });
  });

  describe('in Europe/Berlin (daylight saving)', () => {
    const spec = specServer({ venueTimezone: 'Europe/Berlin' });

    it('keeps the local time across the change: 19:30 is 18:30Z in winter and 17:30Z in summer', async () => {
      const show = await buildShow({ status: 'PUBLISHED', code: 'BERLIN', slug: 'kabarett' });
      // Summer time begins on Sunday 2030-03-31; the Saturdays are the 23rd, the 30th and 6 April.
      const res = await spec.server.request('POST', BATCH, { headers: asSuperuser, body: { showCode: 'BERLIN', from: '2030-03-23', to: '2030-04-06', weekdays: [6], times: ['19:30'], capacity: 60, doorsMinutesBefore: 60 } });
      expect(res.body.createdSlugs).to.deep.equal(['kabarett-2030-03-23-1930', 'kabarett-2030-03-30-1930', 'kabarett-2030-04-06-1930']);
      expect((await stored(spec.server, show.id)).map((row) => [row.startsAt, row.doorsAt])).to.deep.equal([
        ['2030-03-23T18:30:00.000Z', '2030-03-23T17:30:00.000Z'],
        ['2030-03-30T18:30:00.000Z', '2030-03-30T17:30:00.000Z'],
        ['2030-04-06T17:30:00.000Z', '2030-04-06T16:30:00.000Z'],
      ]);
      const list = await spec.server.request('GET', `/api/show-events?showId=${show.id}&from=2030-04-06&to=2030-04-06`, { headers: asSuperuser });
      expect(list.body.items.map((item: { localTime: string; timezone: string }) => [item.localTime, item.timezone])).to.deep.equal([['19:30', 'Europe/Berlin']]);
    });

    it('a local time the change skips moves forward to an existing one, and is made once', async () => {
      const show = await buildShow({ status: 'PUBLISHED', code: 'NIGHT', slug: 'nachtshow' });
      const res = await spec.server.request('POST', BATCH, { headers: asSuperuser, body: { showCode: 'NIGHT', from: '2030-03-31', to: '2030-03-31', dates: ['2030-03-31'], times: ['02:30', '03:30'], capacity: 20 } });
      expect(res.body).to.deep.include({ created: 1, unchanged: 0, createdSlugs: ['nachtshow-2030-03-31-0330'] });
      expect((await stored(spec.server, show.id)).map((row) => row.startsAt)).to.deep.equal(['2030-03-31T01:30:00.000Z']);
    });
  });
});
