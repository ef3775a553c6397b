import { expect } from 'chai';
import { quote } from '../../../server/domain/pricing.ts';
import { addDays, localToday } from '../../../server/domain/venueTime.ts';
import { startTestServer, type TestResponse, type TestServer } from '../../helpers/server.ts';
import { forgetAnswersOnDirectWrites, keysOf, local, STAFF_ONLY_KEYS, ZONE } from './helpers.ts';
import { buildFulfillmentItem } from '../fulfillment/factories.ts';
import { buildOffer } from '../offers/factories.ts';
import { buildEvent, ON_SALE } from '../showEvents/factories.ts';
import { buildShow, type ShowRow } from '../shows/factories.ts';
import { buildBlob } from '../storage/factories.ts';

/**
 * The public catalog (tag `catalog`): what the guest website reads, anonymously. Rows are written straight into
 * the catalog tables; every answer is checked against openapi.yaml by the test server.
 */

const STAFF_NOTE = 'STAFF-ONLY-xyzzy';
const CANCEL_REASON = 'CANCEL-REASON-plugh';
const DRAFT_TITLE = 'DRAFT-TITLE-zork';
const DEFAULT_RULES = { serviceChargePercent: 5, vatPercent: 8 };

const expectProblem = (res: TestResponse, status: number, code: string) => {
  expect(res.status, res.text).to.equal(status);
  expect(res.body.code, res.text).to.equal(code);
};

describe('public catalog API', () => {
  let server: TestServer;
  const today = localToday(ZONE);
  const d = (days: number) => addDays(today, days);
  let cabaret: ShowRow;
  let lotus: ShowRow;
  const slugs: Record<string, string> = {};
  let privateKey = '';
  let publicKey = '';

  before(async () => {
    server = await startTestServer();
    forgetAnswersOnDirectWrites(server);
    const knex = server.db.knex;
    const image = await buildBlob({ purpose: 'show-image' });
    const attachment = await buildBlob({ purpose: 'attachment' });
    const deleted = await buildBlob({ purpose: 'show-image', deleted: true });
    publicKey = image.key;
    privateKey = attachment.key;
    cabaret = await buildShow({
      status: 'PUBLISHED',
      slug: 'saigon-cabaret',
      code: 'SGC',
      sortOrder: 1,
      // The age rule (issue 34 §3); lotus keeps none (all ages).
      minimumAge: 12,
      title: { en: 'Saigon Cabaret', vi: 'Sài Gòn Cabaret' },
      summary: { en: 'A night of song' },
      description: { en: 'Ninety minutes of music', vi: 'Chín mươi phút âm nhạc' },
      imageBlobIds: [image.id, attachment.id, deleted.id, 'not-a-blob'],
    });
    lotus = await buildShow({ status: 'PUBLISHED', slug: 'lotus-dreams', code: 'LOT', sortOrder: 2, title: { en: 'Lotus Dreams' } });
    // Same sortOrder as lotus: the code decides (AAA before LOT).
    await buildShow({ status: 'PUBLISHED', slug: 'acrobats', code: 'AAA', sortOrder: 2, title: { en: 'Acrobats' } });
    const draft = await buildShow({ slug: 'secret-draft', code: 'DRF', status: 'DRAFT', title: { en: DRAFT_TITLE } });
    const archived = await buildShow({ slug: 'old-show', code: 'OLD', status: 'ARCHIVED', title: { en: 'Old show' } });

    slugs.open = (await buildEvent(cabaret, { ...ON_SALE, startsAt: local(d(3), '19:30'), staffNotes: STAFF_NOTE })).slug;
    slugs.limited = (await buildEvent(cabaret, { ...ON_SALE, startsAt: local(d(10), '19:30'), capacity: 8 })).slug;
    slugs.salesClosed = (await buildEvent(cabaret, { ...ON_SALE, startsAt: local(d(17), '19:30'), salesOpen: false })).slug;
    slugs.cancelled = (await buildEvent(cabaret, { ...ON_SALE, startsAt: local(d(24), '19:30'), status: 'CANCELLED', cancellationReason: CANCEL_REASON })).slug;
    slugs.soon = (await buildEvent(cabaret, { ...ON_SALE, startsAt: new Date(Date.now() + 60 * 60_000) })).slug;
    slugs.past = (await buildEvent(cabaret, { ...ON_SALE, startsAt: local(d(-2), '19:30'), status: 'COMPLETED' })).slug;
    await buildEvent(cabaret, { ...ON_SALE, startsAt: local(d(3), '21:00'), slug: null });
    slugs.lotus = (await buildEvent(lotus, { ...ON_SALE, startsAt: local(d(3), '20:00'), doorsMinutes: null })).slug;
    slugs.draft = (await buildEvent(draft, { ...ON_SALE, startsAt: local(d(3), '18:00'), staffNotes: STAFF_NOTE })).slug;
    slugs.archived = (await buildEvent(archived, { ...ON_SALE, startsAt: local(d(3), '18:30') })).slug;

    const meal = await buildFulfillmentItem({ code: 'MEAL-SET', name: { en: 'Set menu', vi: 'Thực đơn' }, kind: 'MEAL', dietaryTags: ['vegetarian-option'] });
    const drink = await buildFulfillmentItem({ code: 'DRINK-WINE', name: { en: 'Glass of wine' }, kind: 'DRINK' });
    await buildOffer({
      showId: cabaret.id,
      code: 'SGC-DINNER',
      name: { en: 'Dinner and show', vi: 'Ăn tối và xem show' },
      pricePerGuestVnd: 1_500_000,
      minGuests: 2,
      maxGuests: 8,
      sortOrder: 1,
      items: [{ id: meal.id }, { id: drink.id, quantity: 2 }],
    });
    await buildOffer({ code: 'SHOW-ONLY', bookingPath: 'SHOW_ONLY', pricePerGuestVnd: 900_000, sortOrder: 2 });
    await buildOffer({ showId: cabaret.id, code: 'SGC-OLD', status: 'INACTIVE', pricePerGuestVnd: 100_000 });
    await buildOffer({ showId: cabaret.id, code: 'SGC-EXPIRED', pricePerGuestVnd: 200_000, salesEndsAt: new Date(Date.now() - 86_400_000) });
    await buildOffer({ showId: cabaret.id, code: 'SGC-LATER', pricePerGuestVnd: 300_000, salesStartsAt: new Date(Date.now() + 86_400_000) });
    await buildOffer({ showId: draft.id, code: 'DRAFT-OFFER', pricePerGuestVnd: 50_000 });
  });

  after(async () => {
    await server.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) => server.request('GET', path, { headers });

  describe('GET /api/public/shows', () => {
    it('lists published shows only, in sortOrder then code, with images, next event and price-from', async () => {
      const res = await get('/api/public/shows');
      expect(res.status, res.text).to.equal(200);
      expect(res.body.items.map((s: any) => s.slug)).to.deep.equal(['saigon-cabaret', 'acrobats', 'lotus-dreams']);
      expect(res.body).to.include({ total: 3, limit: 20, offset: 0, locale: 'en' });
      const [sgc] = res.body.items;
      expect(sgc).to.deep.include({ code: 'SGC', title: 'Saigon Cabaret', summary: 'A night of song', durationMinutes: 90, minimumAge: 12 });
      expect(res.body.items[2].minimumAge).to.equal(null);
      // Only the public, undeleted image; in the show's order.
      expect(sgc.imageUrls).to.deep.equal([`/api/public/assets?key=${encodeURIComponent(publicKey)}`]);
      expect(sgc.nextEvent.slug).to.equal(slugs.soon);
      expect(sgc.priceFrom).to.deep.equal(quote(900_000, 1, DEFAULT_RULES));
      // The all-shows offer is on sale for every show; a show without offers of its own still has it.
      expect(res.body.items[2].priceFrom).to.deep.equal(quote(900_000, 1, DEFAULT_RULES));
      expect(res.body.items[2].nextEvent).to.deep.equal({ slug: slugs.lotus, date: d(3), time: '20:00', startsAt: local(d(3), '20:00').toISOString() });
      expect(res.body.items[1].nextEvent).to.equal(null);
    });

    it('pages with a total', async () => {
      const res = await get('/api/public/shows?limit=1&offset=1');
      expect(res.body.items.map((s: any) => s.slug)).to.deep.equal(['acrobats']);
      expect(res.body.total).to.equal(3);
      const past = await get('/api/public/shows?limit=5&offset=10');
      expect(past.body).to.include({ total: 3 });
      expect(past.body.items).to.deep.equal([]);
    });

    it('resolves text for the locale, falling back to the default locale for missing text and unknown locales', async () => {
      const vi = await get('/api/public/shows?locale=vi');
      expect(vi.headers.get('content-language')).to.equal('vi');
      expect(vi.body.locale).to.equal('vi');
      const [sgc] = vi.body.items;
      expect(sgc).to.include({ title: 'Sài Gòn Cabaret', description: 'Chín mươi phút âm nhạc', summary: 'A night of song' });
      const fr = await get('/api/public/shows?locale=fr');
      expect(fr.headers.get('content-language')).to.equal('en');
      expect(fr.body.items[0].title).to.equal('Saigon Cabaret');
      expectProblem(await get('/api/public/shows?locale=e!'), 400, 'validation_failed');
    });
  });

  describe('GET /api/public/shows/{slug}', () => {
    it('answers a published show with its offers on sale and its upcoming scheduled events', async () => {
      const res = await get('/api/public/shows/saigon-cabaret?locale=vi');
      expect(res.status, res.text).to.equal(200);
      expect(res.body.title).to.equal('Sài Gòn Cabaret');
      expect(res.body.minimumAge).to.equal(12);
      expect(res.body.offers.map((o: any) => o.code)).to.deep.equal(['SGC-DINNER', 'SHOW-ONLY']);
      expect(res.body.offers[0].name).to.equal('Ăn tối và xem show');
      expect(res.body.offers[0].items).to.deep.equal([
        { name: 'Glass of wine', kind: 'DRINK', quantityPerGuest: 2, dietaryTags: [] },
        { name: 'Thực đơn', kind: 'MEAL', quantityPerGuest: 1, dietaryTags: ['vegetarian-option'] },
      ]);
      const events = res.body.events.map((e: any) => [e.slug, e.state]);
      expect(events).to.deep.equal([
        [slugs.soon, 'CLOSED'],
        [slugs.open, 'AVAILABLE'],
        [slugs.limited, 'LIMITED'],
        [slugs.salesClosed, 'CLOSED'],
      ]);
      expect(res.body.events[1]).to.include({ date: d(3), time: '19:30', seatsLeft: 120 });
    });

    it('is the same 404 for a draft, an archived and an unknown show', async () => {
      const bodies = [];
      for (const slug of ['secret-draft', 'old-show', 'no-such-show']) {
        const res = await get(`/api/public/shows/${slug}`);
        expectProblem(res, 404, 'not_found');
        const { requestId: _id, ...rest } = res.body;
        bodies.push(rest);
      }
      expect(bodies[0]).to.deep.equal(bodies[1]);
      expect(bodies[0]).to.deep.equal(bodies[2]);
      expectProblem(await get('/api/public/shows/Not_A_Slug'), 400, 'validation_failed');
    });
  });

  describe('GET /api/public/show-events', () => {
    it('lists upcoming scheduled events of published shows in start order, with availability', async () => {
      const res = await get('/api/public/show-events');
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ from: today, to: d(56), timeZone: ZONE, locale: 'en', total: 5 });
      expect(res.body.items.map((e: any) => [e.slug, e.state, e.seatsLeft])).to.deep.equal([
        [slugs.soon, 'CLOSED', null],
        [slugs.open, 'AVAILABLE', 120],
        [slugs.lotus, 'AVAILABLE', 120],
        [slugs.limited, 'LIMITED', null],
        [slugs.salesClosed, 'CLOSED', null],
      ]);
      const open = res.body.items[1];
      expect(open).to.deep.include({
        date: d(3),
        time: '19:30',
        startsAt: local(d(3), '19:30').toISOString(),
        doorsAt: local(d(3), '18:30').toISOString(),
        bookingClosesAt: local(d(3), '17:30').toISOString(),
        cancelled: false,
        show: { slug: 'saigon-cabaret', title: 'Saigon Cabaret', durationMinutes: 90, minimumAge: 12 },
      });
      expect(res.body.items[2].doorsAt).to.equal(null);
      expect(res.body.items[2].show.minimumAge).to.equal(null);
      // Offers: the show's own and the all-shows one; never inactive, ended or not yet started, nor another show's.
      // Each event names them; the page carries each once.
      expect(open.offerCodes).to.deep.equal(['SGC-DINNER', 'SHOW-ONLY']);
      expect(res.body.items[2].offerCodes).to.deep.equal(['SHOW-ONLY']);
      expect(res.body.offers.map((o: any) => o.code)).to.deep.equal(['SGC-DINNER', 'SHOW-ONLY']);
      const lotusOnly = await get('/api/public/show-events?show=lotus-dreams');
      expect(lotusOnly.body.offers.map((o: any) => o.code)).to.deep.equal(['SHOW-ONLY']);
    });

    it('prices every offer with quote() from the commercial setup, and follows a change of the setup', async () => {
      const first = await get('/api/public/show-events?show=saigon-cabaret');
      const dinner = first.body.offers[0];
      expect(dinner.code).to.equal('SGC-DINNER');
      expect(dinner).to.deep.include({ minGuests: 2, maxGuests: 8, bookingPath: 'DINNER_SHOW', experienceType: 'STANDARD' });
      expect(dinner.perGuest).to.deep.equal(quote(1_500_000, 1, DEFAULT_RULES));
      expect(dinner.minGuestsQuote).to.deep.equal(quote(1_500_000, 2, DEFAULT_RULES));
      expect(dinner.minGuestsQuote).to.deep.equal({
        currency: 'VND',
        guests: 2,
        pricePerGuestVnd: 1_500_000,
        subtotalVnd: 3_000_000,
        serviceChargeVnd: 150_000,
        vatVnd: 252_000,
        totalVnd: 3_402_000,
      });
      await server.db.knex('commercial_setup').where('id', 1).update({ service_charge_percent: 10, vat_percent: 10.5 });
      try {
        const changed = await get('/api/public/show-events?show=saigon-cabaret');
        const rules = { serviceChargePercent: 10, vatPercent: 10.5 };
        expect(changed.body.offers[0].minGuestsQuote).to.deep.equal(quote(1_500_000, 2, rules));
        expect(changed.body.offers[0].perGuest).to.deep.equal(quote(1_500_000, 1, rules));
        expect(changed.body.offers[0].minGuestsQuote.totalVnd).to.not.equal(dinner.minGuestsQuote.totalVnd);
        const one = await get(`/api/public/show-events/${slugs.open}`);
        expect(one.body.offers[0].minGuestsQuote).to.deep.equal(quote(1_500_000, 2, rules));
        expect(changed.headers.get('etag')).to.not.equal(first.headers.get('etag'));
        const shows = await get('/api/public/shows');
        expect(shows.body.items[0].priceFrom).to.deep.equal(quote(900_000, 1, rules));
      } finally {
        await server.db.knex('commercial_setup').where('id', 1).update({ service_charge_percent: 5, vat_percent: 8 });
      }
    });

    it('follows the setup’s cut-off and threshold', async () => {
      await server.db.knex('commercial_setup').where('id', 1).update({ booking_cutoff_minutes: 30, limited_availability_threshold: 120 });
      try {
        const res = await get('/api/public/show-events?show=saigon-cabaret');
        expect(res.body.items.map((e: any) => [e.slug, e.state])).to.deep.equal([
          [slugs.soon, 'LIMITED'],
          [slugs.open, 'LIMITED'],
          [slugs.limited, 'LIMITED'],
          [slugs.salesClosed, 'CLOSED'],
        ]);
        expect(res.body.items.every((e: any) => e.seatsLeft === null)).to.equal(true);
      } finally {
        await server.db.knex('commercial_setup').where('id', 1).update({ booking_cutoff_minutes: 120, limited_availability_threshold: 10 });
      }
    });

    it('reads dates in the venue’s time zone: 06:30 and 23:30 local on D belong to D, 00:30 on D+1 does not', async () => {
      const knex = server.db.knex;
      const day = d(40);
      const early = await buildEvent(lotus, { ...ON_SALE, startsAt: local(day, '06:30') }); // the day before, in UTC
      const late = await buildEvent(lotus, { ...ON_SALE, startsAt: local(day, '23:30') });
      const after = await buildEvent(lotus, { ...ON_SALE, startsAt: local(d(41), '00:30') });
      const before = await buildEvent(lotus, { ...ON_SALE, startsAt: local(d(39), '23:30') });
      try {
        expect(local(day, '06:30').toISOString().slice(0, 10)).to.equal(d(39));
        const res = await get(`/api/public/show-events?from=${day}&to=${day}`);
        expect(res.body.items.map((e: any) => [e.slug, e.date, e.time])).to.deep.equal([
          [early.slug, day, '06:30'],
          [late.slug, day, '23:30'],
        ]);
      } finally {
        await knex('show_events').whereIn('id', [early.id, late.id, after.id, before.id]).delete();
      }
    });

    it('reads local dates and times in VENUE_TIMEZONE, whatever it is', async () => {
      const newYork = await startTestServer({ keepData: true, config: { venueTimezone: 'America/New_York' } });
      try {
        // 19:30 in Ho Chi Minh City (UTC+7) is 07:30 the same day in New York (UTC−5 in winter, −4 in summer).
        const res = await newYork.request('GET', `/api/public/show-events/${slugs.open}`);
        const expected = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
          .format(local(d(3), '19:30'))
          .replace(',', '');
        expect(`${res.body.date} ${res.body.time}`).to.equal(expected);
        expect(res.body.time).to.not.equal('19:30');
        const list = await newYork.request('GET', '/api/public/show-events?show=saigon-cabaret');
        expect(list.body.timeZone).to.equal('America/New_York');
        expect(list.body.items.find((e: any) => e.slug === slugs.open).time).to.equal(res.body.time);
      } finally {
        await newYork.close();
      }
    });

    it('filters by show, pages with a total', async () => {
      const lotusOnly = await get('/api/public/show-events?show=lotus-dreams');
      expect(lotusOnly.body.items.map((e: any) => e.slug)).to.deep.equal([slugs.lotus]);
      expect((await get('/api/public/show-events?show=secret-draft')).body).to.include({ total: 0 });
      expect((await get('/api/public/show-events?show=nothing-here')).body.items).to.deep.equal([]);
      const page = await get('/api/public/show-events?limit=2&offset=2');
      expect(page.body.items.map((e: any) => e.slug)).to.deep.equal([slugs.lotus, slugs.limited]);
      expect(page.body).to.include({ total: 5, limit: 2, offset: 2 });
      const beyond = await get('/api/public/show-events?limit=2&offset=50');
      expect(beyond.body).to.include({ total: 5 });
      expect(beyond.body.items).to.deep.equal([]);
    });

    it('refuses bad dates (400), `to` before `from` and ranges over 120 days (422)', async () => {
      expectProblem(await get('/api/public/show-events?from=2026-02-30'), 400, 'validation_failed');
      expectProblem(await get('/api/public/show-events?from=tomorrow'), 400, 'validation_failed');
      expectProblem(await get('/api/public/show-events?to=12%2F05%2F2026'), 400, 'validation_failed');
      expectProblem(await get('/api/public/show-events?limit=0'), 400, 'validation_failed');
      const backwards = await get(`/api/public/show-events?from=${d(5)}&to=${d(4)}`);
      expectProblem(backwards, 422, 'invalid_date_range');
      expect(backwards.body.errors[0].path).to.equal('query/to');
      const long = await get(`/api/public/show-events?from=${d(0)}&to=${d(121)}`);
      expectProblem(long, 422, 'date_range_too_long');
      expect(long.body.errors[0].path).to.equal('query/to');
      expect((await get(`/api/public/show-events?from=${d(0)}&to=${d(120)}`)).status).to.equal(200);
      // `to` alone beyond 120 days from today's default `from` is refused too.
      expectProblem(await get(`/api/public/show-events?to=${d(130)}`), 422, 'date_range_too_long');
    });
  });

  describe('GET /api/public/show-events/{slug}', () => {
    it('answers an event of a published show with its offers', async () => {
      const res = await get(`/api/public/show-events/${slugs.open}?locale=vi`);
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('content-language')).to.equal('vi');
      expect(res.body).to.deep.include({ slug: slugs.open, state: 'AVAILABLE', seatsLeft: 120, cancelled: false });
      expect(res.body.show.title).to.equal('Sài Gòn Cabaret');
      expect(res.body.show.minimumAge).to.equal(12);
      expect(res.body.offers.map((o: any) => o.code)).to.deep.equal(['SGC-DINNER', 'SHOW-ONLY']);
    });

    it('answers a cancelled event as CLOSED and cancelled, and a past one as CLOSED, both without offers', async () => {
      const cancelled = await get(`/api/public/show-events/${slugs.cancelled}`);
      expect(cancelled.status).to.equal(200);
      expect(cancelled.body).to.deep.include({ state: 'CLOSED', cancelled: true, seatsLeft: null, offers: [] });
      const past = await get(`/api/public/show-events/${slugs.past}`);
      expect(past.body).to.deep.include({ state: 'CLOSED', cancelled: false, offers: [] });
    });

    it('is the same 404 for an event of a draft or archived show and an unknown slug', async () => {
      for (const slug of [slugs.draft, slugs.archived, 'saigon-cabaret-2001-01-01-1930']) expectProblem(await get(`/api/public/show-events/${slug}`), 404, 'not_found');
    });
  });

  describe('caching', () => {
    for (const path of ['/api/public/shows', '/api/public/shows/saigon-cabaret', '/api/public/show-events', `/api/public/show-events/{open}`]) {
      it(`${path}: Cache-Control, a strong ETag over the body, 304 for If-None-Match (strong, weak or in a list)`, async () => {
        const url = path.replace('{open}', slugs.open);
        const res = await get(url);
        expect(res.status).to.equal(200);
        expect(res.headers.get('cache-control')).to.equal('public, max-age=60');
        const etag = res.headers.get('etag')!;
        expect(etag).to.match(/^"[A-Za-z0-9_-]{32}"$/);
        expect((await get(url)).headers.get('etag')).to.equal(etag);
        for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`]) {
          const cached = await get(url, { 'if-none-match': ifNoneMatch });
          expect(cached.status).to.equal(304);
          expect(cached.text).to.equal('');
          expect(cached.headers.get('etag')).to.equal(etag);
          expect(cached.headers.get('cache-control')).to.equal('public, max-age=60');
        }
        expect((await get(url, { 'if-none-match': '"stale"' })).status).to.equal(200);
        // Another locale is another body, so another ETag.
        expect((await get(`${url}${url.includes('?') ? '&' : '?'}locale=vi`)).headers.get('etag')).to.not.equal(etag);
      });
    }
  });

  describe('privacy', () => {
    it('never shows staff-only fields, internal ids, drafts, archived shows or inactive offers in any answer', async () => {
      const paths = [
        '/api/public/shows',
        '/api/public/shows?locale=vi',
        '/api/public/shows/saigon-cabaret',
        '/api/public/shows/lotus-dreams',
        '/api/public/show-events',
        '/api/public/show-events?locale=vi',
        `/api/public/show-events?from=${d(-5)}&to=${d(60)}`,
        ...Object.values(slugs).map((slug) => `/api/public/show-events/${slug}`),
      ];
      const forbiddenText = [STAFF_NOTE, CANCEL_REASON, DRAFT_TITLE, 'secret-draft', 'old-show', 'SGC-OLD', 'SGC-EXPIRED', 'SGC-LATER', 'DRAFT-OFFER', privateKey];
      const ids: string[] = [];
      for (const table of ['shows', 'show_events', 'offers', 'fulfillment_items', 'storage_blobs']) ids.push(...(await server.db.knex(table).pluck('id')));
      let answered = 0;
      for (const path of paths) {
        const res = await get(path);
        if (res.status !== 200) continue;
        answered++;
        expect([...keysOf(res.body)].filter((key) => STAFF_ONLY_KEYS.has(key)), path).to.deep.equal([]);
        for (const text of forbiddenText) expect(res.text, `${path} shows ${text}`).to.not.include(text);
        for (const id of ids) expect(res.text, `${path} shows the row id ${id}`).to.not.include(id);
      }
      expect(answered).to.equal(paths.length - 2); // the draft's and the archived show's events are 404
    });
  });
});
