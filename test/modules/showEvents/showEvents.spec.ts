import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { errorPaths } from '../../helpers/accounts.ts';
import { buildApiKey, permissionMap } from '../../helpers/factories.ts';
import { buildEvent } from './factories.ts';
import { inDays, specServer } from './helpers.ts';
import { buildShow } from '../shows/factories.ts';

const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((item) => item.id);

describe('showEvents: list, get, create, update and the sales/complete actions', () => {
  const spec = specServer({ venueTimezone: 'Asia/Ho_Chi_Minh', siteLocales: ['en', 'vi'], defaultLocale: 'en' }, { clean: true });

  describe('access', () => {
    it('reads are staff+, writes admin+: 401 anonymous, 403 staff on writes, API keys need the permission', async () => {
      const show = await buildShow({ status: 'PUBLISHED' });
      const event = await buildEvent(show);
      expect((await spec.server.request('GET', '/api/show-events')).status).to.equal(401);
      expect((await spec.server.request('GET', `/api/show-events/${event.id}`)).status).to.equal(401);
      expect((await spec.server.request('GET', '/api/show-events', { headers: spec.as.staff })).status).to.equal(200);
      const create = { showId: show.id, startsAt: inDays(3).toISOString(), capacity: 50 };
      const denied = await spec.server.request('POST', '/api/show-events', { headers: spec.as.staff, body: create });
      expect(denied.status).to.equal(403);
      expect((await spec.server.request('PATCH', `/api/show-events/${event.id}`, { headers: spec.as.staff, body: { capacity: 10 } })).status).to.equal(403);
      for (const action of ['open-sales', 'close-sales', 'complete']) {
        expect((await spec.server.request('POST', `/api/show-events/${event.id}/${action}`, { headers: spec.as.staff })).status, action).to.equal(403);
      }
      const reader = await buildApiKey({ permissions: permissionMap('show-events:read') });
      expect((await spec.server.request('GET', '/api/show-events', { headers: { 'x-api-key': reader.key } })).status).to.equal(200);
      const refused = await spec.server.request('POST', '/api/show-events', { headers: { 'x-api-key': reader.key }, body: create });
      expect(refused.body.code).to.equal('missing_permission');
      const writer = await buildApiKey({ permissions: permissionMap('show-events:write') });
      expect((await spec.server.request('POST', '/api/show-events', { headers: { 'x-api-key': writer.key }, body: create })).status).to.equal(201);
      // Sales are their own permission: a box-office key opens and closes them, and schedules nothing.
      const boxOffice = await buildApiKey({ permissions: permissionMap('show-events:sales') });
      expect((await spec.server.request('POST', `/api/show-events/${event.id}/open-sales`, { headers: { 'x-api-key': writer.key } })).body.code).to.equal('missing_permission');
      expect((await spec.server.request('POST', `/api/show-events/${event.id}/open-sales`, { headers: { 'x-api-key': boxOffice.key } })).body.salesOpen).to.equal(true);
      expect((await spec.server.request('PATCH', `/api/show-events/${event.id}`, { headers: { 'x-api-key': boxOffice.key }, body: { capacity: 10 } })).body.code).to.equal('missing_permission');
    });
  });

  describe('GET /api/show-events', () => {
    it('takes local dates inclusively in VENUE_TIMEZONE: 23:30 local on D is in D, 00:30 local on D+1 is not', async () => {
      const show = await buildShow({ status: 'PUBLISHED' });
      // Asia/Ho_Chi_Minh is UTC+7: 16:30Z is 23:30 local on the 5th, 17:30Z is 00:30 local on the 6th.
      const late = await buildEvent(show, { startsAt: new Date('2026-12-05T16:30:00Z') });
      const afterMidnight = await buildEvent(show, { startsAt: new Date('2026-12-05T17:30:00Z') });
      const early = await buildEvent(show, { startsAt: new Date('2026-12-04T17:00:00Z') }); // 00:00 local on the 5th
      const day = await spec.server.request('GET', '/api/show-events?from=2026-12-05&to=2026-12-05', { headers: spec.as.staff });
      expect(day.status).to.equal(200);
      expect(ids(day)).to.deep.equal([early.id, late.id]);
      const next = await spec.server.request('GET', '/api/show-events?from=2026-12-06&to=2026-12-06', { headers: spec.as.staff });
      expect(ids(next)).to.deep.equal([afterMidnight.id]);
      expect(ids(await spec.server.request('GET', '/api/show-events?from=2026-12-06', { headers: spec.as.staff }))).to.deep.equal([afterMidnight.id]);
      expect(ids(await spec.server.request('GET', '/api/show-events?to=2026-12-05', { headers: spec.as.staff }))).to.deep.equal([early.id, late.id]);
      expect(day.body.items[1]).to.include({ localDate: '2026-12-05', localTime: '23:30', timezone: 'Asia/Ho_Chi_Minh', weekday: 6 });
    });

    it('refuses from after to (422) and malformed filters (400 naming the field)', async () => {
      const backwards = await spec.server.request('GET', '/api/show-events?from=2026-12-06&to=2026-12-05', { headers: spec.as.staff });
      expect(backwards.status).to.equal(422);
      expect(backwards.body.code).to.equal('invalid_date_range');
      for (const [query, field] of [
        ['from=2026-13-01', 'query/from'],
        ['to=05-12-2026', 'query/to'],
        ['status=OPEN', 'query/status'],
        ['showId=nope', 'query/showId'],
        ['limit=0', 'query/limit'],
        ['salesOpen=maybe', 'query/salesOpen'],
      ]) {
        const res = await spec.server.request('GET', `/api/show-events?${query}`, { headers: spec.as.staff });
        expect(res.status, query).to.equal(400);
        expect(errorPaths(res), query).to.include(field);
      }
    });

    it('filters by show, status and sales, orders by start then id, and pages with a total', async () => {
      const show = await buildShow({ status: 'PUBLISHED' });
      const other = await buildShow({ status: 'PUBLISHED' });
      const at = new Date('2027-01-10T12:00:00Z');
      const tied = [await buildEvent(show, { startsAt: at }), await buildEvent(show, { startsAt: at })].sort((a, b) => a.id.localeCompare(b.id));
      const first = await buildEvent(show, { startsAt: new Date('2027-01-09T12:00:00Z'), salesOpen: true });
      const cancelled = await buildEvent(show, { startsAt: new Date('2027-01-11T12:00:00Z'), status: 'CANCELLED', cancelledAt: new Date() });
      const foreign = await buildEvent(other, { startsAt: new Date('2027-01-08T12:00:00Z') });

      const all = await spec.server.request('GET', `/api/show-events?showId=${show.id}`, { headers: spec.as.staff });
      expect(ids(all)).to.deep.equal([first.id, tied[0].id, tied[1].id, cancelled.id]);
      expect(all.body.total).to.equal(4);
      const page = await spec.server.request('GET', `/api/show-events?showId=${show.id}&limit=2&offset=1`, { headers: spec.as.staff });
      expect(page.body).to.include({ total: 4, limit: 2, offset: 1 });
      expect(ids(page)).to.deep.equal([tied[0].id, tied[1].id]);
      expect(ids(await spec.server.request('GET', '/api/show-events?status=CANCELLED', { headers: spec.as.staff }))).to.deep.equal([cancelled.id]);
      expect(ids(await spec.server.request('GET', '/api/show-events?salesOpen=true', { headers: spec.as.staff }))).to.deep.equal([first.id]);
      expect(ids(await spec.server.request('GET', `/api/show-events?showId=${other.id}`, { headers: spec.as.staff }))).to.deep.equal([foreign.id]);
    });
  });

  describe('GET /api/show-events/{eventId}', () => {
    it('is the staff view: notes, capacity, sales, cancellation fields, the show, local times; titles fall back to the default locale', async () => {
      const show = await buildShow({ status: 'PUBLISHED', code: 'SGC', slug: 'saigon-cabaret', title: { en: 'Saigon Cabaret' } });
      const event = await buildEvent(show, {
        slug: 'saigon-cabaret-2026-12-05-1930',
        startsAt: new Date('2026-12-05T12:30:00Z'),
        doorsAt: new Date('2026-12-05T11:45:00Z'),
        capacity: 120,
        staffNotes: 'Two vegan guests at VIP 2',
      });
      const res = await spec.server.request('GET', `/api/show-events/${event.id}`, { headers: spec.as.staff });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({
        id: event.id,
        slug: 'saigon-cabaret-2026-12-05-1930',
        status: 'SCHEDULED',
        startsAt: '2026-12-05T12:30:00.000Z',
        doorsAt: '2026-12-05T11:45:00.000Z',
        localDate: '2026-12-05',
        localTime: '19:30',
        doorsLocalTime: '18:45',
        capacity: 120,
        salesOpen: false,
        staffNotes: 'Two vegan guests at VIP 2',
        cancelledAt: null,
        cancellationReason: null,
        completedAt: null,
      });
      expect(res.body.show).to.deep.equal({ id: show.id, code: 'SGC', slug: 'saigon-cabaret', status: 'PUBLISHED', title: { en: 'Saigon Cabaret', vi: 'Saigon Cabaret' } });
    });

    it('404 for an unknown id, 400 for a malformed one', async () => {
      const missing = await spec.server.request('GET', `/api/show-events/${randomUUID()}`, { headers: spec.as.staff });
      expect(missing.status).to.equal(404);
      const malformed = await spec.server.request('GET', '/api/show-events/not-a-uuid', { headers: spec.as.staff });
      expect(malformed.status).to.equal(400);
      expect(errorPaths(malformed)).to.include('path/eventId');
    });
  });

  describe('POST /api/show-events', () => {
    it('creates the event with its slug from the local start', async () => {
      const show = await buildShow({ status: 'PUBLISHED', slug: 'saigon-cabaret' });
      const res = await spec.server.request('POST', '/api/show-events', {
        headers: spec.as.admin,
        body: { showId: show.id, startsAt: '2027-02-14T19:30:00+07:00', doorsAt: '2027-02-14T18:30:00+07:00', capacity: 80, salesOpen: true, staffNotes: 'Valentine menu' },
      });
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ slug: 'saigon-cabaret-2027-02-14-1930', startsAt: '2027-02-14T12:30:00.000Z', capacity: 80, salesOpen: true, status: 'SCHEDULED', staffNotes: 'Valentine menu' });
      expect((await spec.server.request('GET', `/api/show-events/${res.body.id}`, { headers: spec.as.staff })).body.slug).to.equal('saigon-cabaret-2027-02-14-1930');
    });

    it('one event per show and local minute: the same start (whatever the offset written) is 409 event_exists', async () => {
      const show = await buildShow({ status: 'PUBLISHED', slug: 'gala' });
      const body = { showId: show.id, startsAt: '2027-03-01T20:00:00+07:00', capacity: 50 };
      expect((await spec.server.request('POST', '/api/show-events', { headers: spec.as.admin, body })).status).to.equal(201);
      const again = await spec.server.request('POST', '/api/show-events', { headers: spec.as.admin, body: { ...body, startsAt: '2027-03-01T13:00:00Z' } });
      expect(again.status).to.equal(409);
      expect(again.body.code).to.equal('event_exists');
    });

    it('refuses an archived show (409), an unknown show (422), doors after the start and sales on a started event (422)', async () => {
      const archived = await buildShow({ status: 'ARCHIVED' });
      const closed = await spec.server.request('POST', '/api/show-events', { headers: spec.as.admin, body: { showId: archived.id, startsAt: inDays(5).toISOString(), capacity: 10 } });
      expect(closed.status).to.equal(409);
      expect(closed.body.code).to.equal('show_archived');
      const unknown = await spec.server.request('POST', '/api/show-events', { headers: spec.as.admin, body: { showId: randomUUID(), startsAt: inDays(5).toISOString(), capacity: 10 } });
      expect(unknown.status).to.equal(422);
      expect(unknown.body.code).to.equal('unknown_show');
      expect(errorPaths(unknown)).to.deep.equal(['body/showId']);
      const show = await buildShow({ status: 'PUBLISHED' });
      const doors = await spec.server.request('POST', '/api/show-events', {
        headers: spec.as.admin,
        body: { showId: show.id, startsAt: '2027-03-01T20:00:00+07:00', doorsAt: '2027-03-01T20:30:00+07:00', capacity: 10 },
      });
      expect(doors.status).to.equal(422);
      expect(doors.body.code).to.equal('doors_after_start');
      const past = await spec.server.request('POST', '/api/show-events', { headers: spec.as.admin, body: { showId: show.id, startsAt: inDays(-1).toISOString(), capacity: 10, salesOpen: true } });
      expect(past.status).to.equal(422);
      expect(past.body.code).to.equal('event_started');
      expect(Number((await spec.server.db.knex('show_events').count({ n: '*' }).first())?.n)).to.equal(0);
    });

    it('validates the body (400 naming the field): offsets required, capacity bounds, unknown fields', async () => {
      const show = await buildShow({ status: 'PUBLISHED' });
      for (const [body, field] of [
        [{ showId: show.id, startsAt: '2027-03-01T20:00:00', capacity: 10 }, 'body/startsAt'],
        [{ showId: show.id, startsAt: '2027-03-01T20:00:00Z', capacity: 0 }, 'body/capacity'],
        [{ showId: show.id, startsAt: '2027-03-01T20:00:00Z', capacity: 100001 }, 'body/capacity'],
        [{ showId: show.id, startsAt: '2027-03-01T20:00:00Z' }, 'body/capacity'],
        [{ showId: show.id, startsAt: '2027-03-01T20:00:00Z', capacity: 10, slug: 'mine' }, 'body/slug'],
        [{ showId: 'SGC', startsAt: '2027-03-01T20:00:00Z', capacity: 10 }, 'body/showId'],
      ] as const) {
        const res = await spec.server.request('POST', '/api/show-events', { headers: spec.as.admin, body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(errorPaths(res), JSON.stringify(body)).to.include(field);
      }
    });
  });

  describe('PATCH /api/show-events/{eventId}', () => {
    it('a new start regenerates the slug and moves the doors with it; capacity and notes change', async () => {
      const show = await buildShow({ status: 'PUBLISHED', slug: 'cabaret' });
      const created = await spec.server.request('POST', '/api/show-events', {
        headers: spec.as.admin,
        body: { showId: show.id, startsAt: '2027-04-01T19:30:00+07:00', doorsAt: '2027-04-01T18:30:00+07:00', capacity: 80 },
      });
      const res = await spec.server.request('PATCH', `/api/show-events/${created.body.id}`, {
        headers: spec.as.admin,
        body: { startsAt: '2027-04-02T20:00:00+07:00', capacity: 90, staffNotes: 'moved a day' },
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ slug: 'cabaret-2027-04-02-2000', localTime: '20:00', doorsLocalTime: '19:00', capacity: 90, staffNotes: 'moved a day' });
      const doorsOnly = await spec.server.request('PATCH', `/api/show-events/${created.body.id}`, { headers: spec.as.admin, body: { doorsAt: null } });
      expect(doorsOnly.body).to.include({ doorsAt: null, slug: 'cabaret-2027-04-02-2000' });
    });

    it('409 event_exists when the new start is another event’s; 409 event_closed on a cancelled or completed event', async () => {
      const show = await buildShow({ status: 'PUBLISHED', slug: 'revue' });
      const a = await spec.server.request('POST', '/api/show-events', { headers: spec.as.admin, body: { showId: show.id, startsAt: '2027-05-01T19:30:00+07:00', capacity: 10 } });
      const b = await spec.server.request('POST', '/api/show-events', { headers: spec.as.admin, body: { showId: show.id, startsAt: '2027-05-02T19:30:00+07:00', capacity: 10 } });
      const clash = await spec.server.request('PATCH', `/api/show-events/${b.body.id}`, { headers: spec.as.admin, body: { startsAt: '2027-05-01T19:30:00+07:00' } });
      expect(clash.status).to.equal(409);
      expect(clash.body.code).to.equal('event_exists');
      expect((await spec.server.request('GET', `/api/show-events/${b.body.id}`, { headers: spec.as.staff })).body.slug).to.equal('revue-2027-05-02-1930');
      expect(a.status).to.equal(201);
      for (const status of ['CANCELLED', 'COMPLETED'] as const) {
        const closed = await buildEvent(show, { status });
        const res = await spec.server.request('PATCH', `/api/show-events/${closed.id}`, { headers: spec.as.admin, body: { capacity: 5 } });
        expect(res.status, status).to.equal(409);
        expect(res.body.code).to.equal('event_closed');
      }
    });

    it('422 for doors after the start, 400 for an empty body, 404 for an unknown event', async () => {
      const show = await buildShow({ status: 'PUBLISHED' });
      const event = await buildEvent(show, { startsAt: new Date('2027-06-01T12:00:00Z') });
      const doors = await spec.server.request('PATCH', `/api/show-events/${event.id}`, { headers: spec.as.admin, body: { doorsAt: '2027-06-01T12:30:00Z' } });
      expect(doors.status).to.equal(422);
      expect(errorPaths(doors)).to.deep.equal(['body/doorsAt']);
      expect((await spec.server.request('PATCH', `/api/show-events/${event.id}`, { headers: spec.as.admin, body: {} })).status).to.equal(400);
      expect((await spec.server.request('PATCH', `/api/show-events/${randomUUID()}`, { headers: spec.as.admin, body: { capacity: 3 } })).status).to.equal(404);
    });
  });

  describe('actions', () => {
    it('open-sales: opens a future scheduled event (idempotent); 409 event_started after the start, event_closed when cancelled or completed', async () => {
      const show = await buildShow({ status: 'PUBLISHED' });
      const future = await buildEvent(show, { startsAt: inDays(2) });
      const opened = await spec.server.request('POST', `/api/show-events/${future.id}/open-sales`, { headers: spec.as.admin });
      expect(opened.status).to.equal(200);
      expect(opened.body.salesOpen).to.equal(true);
      expect((await spec.server.request('POST', `/api/show-events/${future.id}/open-sales`, { headers: spec.as.admin })).body.salesOpen).to.equal(true);

      const started = await buildEvent(show, { startsAt: inDays(-0.01) });
      const late = await spec.server.request('POST', `/api/show-events/${started.id}/open-sales`, { headers: spec.as.admin });
      expect([late.status, late.body.code]).to.deep.equal([409, 'event_started']);
      for (const status of ['CANCELLED', 'COMPLETED'] as const) {
        const closed = await buildEvent(show, { status, startsAt: inDays(3) });
        const res = await spec.server.request('POST', `/api/show-events/${closed.id}/open-sales`, { headers: spec.as.admin });
        expect([res.status, res.body.code], status).to.deep.equal([409, 'event_closed']);
        expect((await spec.server.db.knex('show_events').where('id', closed.id).first()).sales_open).to.equal(false);
      }
    });

    it('close-sales: closes, and is idempotent in every state', async () => {
      const show = await buildShow({ status: 'PUBLISHED' });
      const open = await buildEvent(show, { salesOpen: true });
      const closed = await spec.server.request('POST', `/api/show-events/${open.id}/close-sales`, { headers: spec.as.admin });
      expect([closed.status, closed.body.salesOpen]).to.deep.equal([200, false]);
      expect((await spec.server.request('POST', `/api/show-events/${open.id}/close-sales`, { headers: spec.as.admin })).status).to.equal(200);
      const cancelled = await buildEvent(show, { status: 'CANCELLED' });
      expect((await spec.server.request('POST', `/api/show-events/${cancelled.id}/close-sales`, { headers: spec.as.admin })).body).to.include({ status: 'CANCELLED', salesOpen: false });
      expect((await spec.server.request('POST', `/api/show-events/${randomUUID()}/close-sales`, { headers: spec.as.admin })).status).to.equal(404);
    });

    it('complete: a started event completes with sales closed (idempotent); 409 event_not_started before its start, event_cancelled when cancelled', async () => {
      const show = await buildShow({ status: 'PUBLISHED' });
      const started = await buildEvent(show, { startsAt: inDays(-0.1), salesOpen: true });
      const done = await spec.server.request('POST', `/api/show-events/${started.id}/complete`, { headers: spec.as.admin });
      expect(done.status).to.equal(200);
      expect(done.body).to.include({ status: 'COMPLETED', salesOpen: false });
      expect(done.body.completedAt).to.be.a('string');
      const again = await spec.server.request('POST', `/api/show-events/${started.id}/complete`, { headers: spec.as.admin });
      expect(again.body.completedAt).to.equal(done.body.completedAt);

      const future = await buildEvent(show, { startsAt: inDays(1) });
      const early = await spec.server.request('POST', `/api/show-events/${future.id}/complete`, { headers: spec.as.admin });
      expect([early.status, early.body.code]).to.deep.equal([409, 'event_not_started']);
      const cancelled = await buildEvent(show, { startsAt: inDays(-1), status: 'CANCELLED' });
      const refused = await spec.server.request('POST', `/api/show-events/${cancelled.id}/complete`, { headers: spec.as.admin });
      expect([refused.status, refused.body.code]).to.deep.equal([409, 'event_cancelled']);
    });
  });
});
