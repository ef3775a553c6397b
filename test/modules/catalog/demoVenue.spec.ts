import { expect } from 'chai';
import { unwrap, type VenueClient } from '../../../sdk/index.ts';
import { DEMO_SHOWS, DEMO_WEEKS, seed } from '../../../seed/index.ts';
import { addDays, localToday } from '../../../server/domain/venueTime.ts';
import { startTestServer, SUPERUSER_TOKEN, type TestResponse, type TestServer } from '../../helpers/server.ts';
import { keysOf, STAFF_ONLY_KEYS } from './helpers.ts';

/**
 * The quality bar of issue 8: the public catalog of the demo venue (seeded as `npm start` seeds it, through the
 * API), with distinctive staff-only data added the way operators add it (staff notes, a cancellation reason, a
 * draft show with events), scanned in every public route, every locale and several date ranges for staff-only
 * keys, row ids and those strings.
 */

const STAFF_NOTE = 'STAFFNOTE-quux-4711';
const CANCEL_REASON = 'CANCELREASON-frob-0815';
const DRAFT_TITLE = 'DRAFTTITLE-grault-42';
const DRAFT_SLUG = 'draft-grault-show';
const LOCALES = ['en', 'vi'];

describe('public catalog of the demo venue: no staff-only field or text', () => {
  let server: TestServer;
  let sdk: VenueClient;
  let draftEventSlug = '';
  let cancelledSlug = '';
  const notedSlugs: string[] = [];

  before(async () => {
    server = await startTestServer();
    sdk = server.client({ superuserToken: SUPERUSER_TOKEN });
    const result = await seed({ client: sdk, passwords: { admin: 'admin password 1', marketing: 'marketing password 1', staff: 'staff password 1' } });
    expect(result.steps.find((step) => step.resource === 'events')!.created).to.be.greaterThan(50);

    // Staff notes on a few upcoming events, one cancelled with a reason (an operator's words).
    const events = unwrap(await sdk.GET('/api/show-events', { params: { query: { limit: 10, from: addDays(localToday(server.config.venueTimezone), 2) } } })).items;
    for (const event of events.slice(0, 4)) {
      unwrap(await sdk.PATCH('/api/show-events/{eventId}', { params: { path: { eventId: event.id } }, body: { staffNotes: `${STAFF_NOTE}: VIP party of ${event.capacity}` } }));
      notedSlugs.push(event.slug!);
    }
    const cancelled = events[5];
    unwrap(await sdk.POST('/api/show-events/{eventId}/cancel', { params: { path: { eventId: cancelled.id } }, body: { reason: CANCEL_REASON } }));
    cancelledSlug = cancelled.slug!;

    // A draft show, with an event of its own and staff notes on it.
    const draft = unwrap(
      await sdk.POST('/api/shows', { body: { code: 'DRFT', slug: DRAFT_SLUG, title: { en: DRAFT_TITLE, vi: DRAFT_TITLE }, durationMinutes: 60, canonical: false } }),
    );
    expect(draft.status).to.equal('DRAFT');
    const startsAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const draftEvent = unwrap(await sdk.POST('/api/show-events', { body: { showId: draft.id, startsAt, capacity: 33, salesOpen: true, staffNotes: STAFF_NOTE } }));
    draftEventSlug = draftEvent.slug!;
  });
  after(() => server.close());

  it('answers every public route without a staff-only key, a row id or a staff-only string', async () => {
    const today = localToday(server.config.venueTimezone);
    const lastDay = addDays(today, DEMO_WEEKS * 7 - 1);
    const eventSlugs: string[] = await server.db.knex('show_events').whereNotNull('slug').orderBy('starts_at').pluck('slug');
    const paths: string[] = [];
    for (const locale of LOCALES) {
      paths.push(`/api/public/shows?locale=${locale}`, `/api/public/shows?locale=${locale}&limit=1&offset=1`);
      for (const show of DEMO_SHOWS) paths.push(`/api/public/shows/${show.slug}?locale=${locale}`);
      paths.push(
        `/api/public/show-events?locale=${locale}`,
        `/api/public/show-events?locale=${locale}&limit=100`,
        `/api/public/show-events?locale=${locale}&limit=100&offset=50`,
        `/api/public/show-events?locale=${locale}&from=${today}&to=${today}`,
        `/api/public/show-events?locale=${locale}&from=${addDays(today, 1)}&to=${addDays(today, 7)}`,
        `/api/public/show-events?locale=${locale}&from=${addDays(today, 20)}&to=${lastDay}&limit=100`,
        `/api/public/show-events?locale=${locale}&from=${addDays(today, -30)}&to=${addDays(today, 90)}&limit=100`,
        `/api/public/show-events?locale=${locale}&show=${DEMO_SHOWS[0].slug}&limit=100`,
        `/api/public/show-events?locale=${locale}&show=${DRAFT_SLUG}`,
      );
      for (const slug of eventSlugs) paths.push(`/api/public/show-events/${slug}?locale=${locale}`);
    }
    const forbiddenText = [STAFF_NOTE, CANCEL_REASON, DRAFT_TITLE, DRAFT_SLUG, draftEventSlug, 'DRFT'];
    const ids: string[] = [];
    for (const table of ['shows', 'show_events', 'offers', 'fulfillment_items', 'venue_tables', 'accounts']) ids.push(...(await server.db.knex(table).pluck('id')));
    const answers: Array<[string, TestResponse]> = [];
    for (const path of paths) answers.push([path, await server.request('GET', path)]);

    let scanned = 0;
    for (const [path, res] of answers) {
      if (path.includes(draftEventSlug)) {
        expect(res.status, path).to.equal(404);
        continue;
      }
      expect(res.status, `${path}: ${res.text}`).to.equal(200);
      scanned++;
      expect([...keysOf(res.body)].filter((key) => STAFF_ONLY_KEYS.has(key)), path).to.deep.equal([]);
      for (const text of forbiddenText) expect(res.text, `${path} shows ${text}`).to.not.include(text);
      for (const id of ids) expect(res.text, `${path} shows the row id ${id}`).to.not.include(id);
    }
    // Every demo event (the cancelled one too) and every list was read, in both locales.
    expect(scanned).to.equal(paths.length - LOCALES.length);
    expect(eventSlugs.length).to.be.greaterThan(DEMO_WEEKS * 10);

    // The draft show is a 404 like an unknown slug; the cancelled event explains itself without its reason.
    expect((await server.request('GET', `/api/public/shows/${DRAFT_SLUG}`)).status).to.equal(404);
    const cancelled = await server.request('GET', `/api/public/show-events/${cancelledSlug}`);
    expect(cancelled.body).to.include({ cancelled: true, state: 'CLOSED' });
    // The scan saw the annotated events (so it would have found the notes).
    const listed = answers.find(([path]) => path === '/api/public/show-events?locale=en&limit=100')![1];
    const listedSlugs = listed.body.items.map((event: { slug: string }) => event.slug);
    expect(listedSlugs).to.include.members(notedSlugs);
    expect(listedSlugs).not.to.include(cancelledSlug);
  });

  it('the staff views do carry that data (so the scan looks for something that exists)', async () => {
    const staffView = await server.request('GET', `/api/show-events?limit=100`, { headers: { 'x-api-token': SUPERUSER_TOKEN } });
    expect(staffView.text).to.include(STAFF_NOTE);
    expect(staffView.text).to.include(CANCEL_REASON);
    expect(staffView.text).to.match(/"capacity":\d+/);
    const shows = await server.request('GET', '/api/shows', { headers: { 'x-api-token': SUPERUSER_TOKEN } });
    expect(shows.text).to.include(DRAFT_TITLE);
    expect(shows.text).to.include('"canonical":true');
  });
});
