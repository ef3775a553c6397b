import { expect } from 'chai';
import { quote } from '../../../server/domain/pricing.ts';
import { addDays, localToday } from '../../../server/domain/venueTime.ts';
import { startTestServer, type TestResponse, type TestServer } from '../../helpers/server.ts';
import { keysOf, local, STAFF_ONLY_KEYS, ZONE } from '../catalog/helpers.ts';
import { buildFulfillmentItem } from '../fulfillment/factories.ts';
import { buildOffer } from '../offers/factories.ts';
import { buildEvent, ON_SALE } from '../showEvents/factories.ts';
import { buildShow, type ShowRow } from '../shows/factories.ts';

/**
 * The assistant-safe data (tag `assistantCatalog`): what the assistant's tools read over HTTP, anonymously.
 * Catalog rows are written straight into the tables, knowledge through the admin API; every answer is checked
 * against openapi.yaml by the test server.
 */

const SITE = 'https://site.example';
const STAFF_NOTE = 'STAFF-ONLY-xyzzy';
const CANCEL_REASON = 'CANCEL-REASON-plugh';
const DRAFT_TITLE = 'DRAFT-TITLE-zork';
const DRAFT_DOC = 'DRAFT-KNOWLEDGE-frobozz';
const ARCHIVED_DOC = 'ARCHIVED-KNOWLEDGE-grue';
const RULES = { serviceChargePercent: 5, vatPercent: 8 };
const ADMIN = { 'x-api-token': 'test-superuser-token-0123456789' };
const PATHS = ['shows', 'events', 'availability', 'booking-options', 'routes'];

describe('assistant-safe data: /api/ai/customer-support/catalog/* and /knowledge', () => {
  let server: TestServer;
  const today = localToday(ZONE);
  const d = (days: number) => addDays(today, days);
  let cabaret: ShowRow;
  let lotus: ShowRow;
  const slugs: Record<string, string> = {};
  const seen: TestResponse[] = [];

  async function get(path: string, headers: Record<string, string> = {}) {
    const res = await server.request('GET', path, { headers });
    seen.push(res);
    return res;
  }

  async function ok(path: string) {
    const res = await get(path);
    expect(res.status, res.text).to.equal(200);
    return res.body;
  }

  async function knowledge(doc: Record<string, unknown>, publish = true) {
    const created = await server.request('POST', '/api/ai/knowledge', { headers: ADMIN, body: doc });
    expect(created.status, created.text).to.equal(201);
    if (publish) expect((await server.request('POST', `/api/ai/knowledge/${created.body.id}/publish`, { headers: ADMIN })).status).to.equal(200);
    return created.body.id as string;
  }

  before(async () => {
    server = await startTestServer({ config: { publicSiteUrl: SITE } });
    const knex = server.db.knex;
    cabaret = await buildShow({
      status: 'PUBLISHED',
      slug: 'saigon-cabaret',
      code: 'SGC',
      sortOrder: 1,
      minimumAge: 18,
      title: { en: 'Saigon Cabaret', vi: 'Sài Gòn Cabaret' },
      summary: { en: 'A night of song', vi: 'Một đêm ca nhạc' },
      description: { en: 'Ninety minutes of music', vi: 'Chín mươi phút âm nhạc' } });
    lotus = await buildShow({ status: 'PUBLISHED', slug: 'lotus-dreams', code: 'LOT', sortOrder: 2, title: { en: 'Lotus Dreams' }, summary: { en: 'Lotus summary' } });
    const draft = await buildShow({ slug: 'secret-draft', code: 'DRF', status: 'DRAFT', title: { en: DRAFT_TITLE } });

    slugs.open = (await buildEvent(cabaret, { ...ON_SALE, startsAt: local(d(3), '19:30'), staffNotes: STAFF_NOTE })).slug;
    slugs.limited = (await buildEvent(cabaret, { ...ON_SALE, startsAt: local(d(4), '19:30'), capacity: 8 })).slug;
    slugs.salesClosed = (await buildEvent(cabaret, { ...ON_SALE, startsAt: local(d(5), '19:30'), salesOpen: false })).slug;
    slugs.cancelled = (await buildEvent(cabaret, { ...ON_SALE, startsAt: local(d(6), '19:30'), status: 'CANCELLED', cancellationReason: CANCEL_REASON })).slug;
    slugs.far = (await buildEvent(cabaret, { ...ON_SALE, startsAt: local(d(30), '19:30') })).slug;
    slugs.lotus = (await buildEvent(lotus, { ...ON_SALE, startsAt: local(d(3), '21:00'), doorsMinutes: null })).slug;
    slugs.draft = (await buildEvent(draft, { ...ON_SALE, startsAt: local(d(3), '18:00'), staffNotes: STAFF_NOTE })).slug;
    slugs.past = (await buildEvent(cabaret, { ...ON_SALE, startsAt: local(d(-2), '19:30'), status: 'COMPLETED' })).slug;

    const meal = await buildFulfillmentItem({ code: 'MEAL-SET', name: { en: 'Set menu', vi: 'Thực đơn' }, kind: 'MEAL', dietaryTags: ['vegetarian-option'] });
    await buildOffer({
      showId: cabaret.id,
      code: 'SGC-DINNER',
      name: { en: 'Dinner and show', vi: 'Ăn tối và xem show' },
      pricePerGuestVnd: 1_500_000,
      minGuests: 2,
      maxGuests: 8,
      sortOrder: 1,
      items: [{ id: meal.id }],
    });
    await buildOffer({ code: 'SHOW-ONLY', bookingPath: 'SHOW_ONLY', pricePerGuestVnd: 900_000, minGuests: 1, maxGuests: 6, sortOrder: 2 });
    await buildOffer({ showId: cabaret.id, code: 'SGC-OLD', status: 'INACTIVE', pricePerGuestVnd: 100_000 });
    await buildOffer({ showId: draft.id, code: 'DRF-OFFER', pricePerGuestVnd: 100_000 });

    await knowledge({ topic: 'dress-code', locale: 'en', title: 'Dress code', body: 'Smart casual. No flip-flops in the dining room.', tags: ['policy', 'dress-code'] });
    await knowledge({ topic: 'dress-code', locale: 'vi', title: 'Trang phục', body: 'Lịch sự, thoải mái. Không mang dép tông.', tags: ['policy', 'dress-code'] });
    await knowledge({ topic: 'children', locale: 'en', title: 'Children', body: 'Children from 5 years are welcome; under 12 pay the child rate.', tags: ['family'] });
    await knowledge({ topic: 'parking', locale: 'en', title: 'Parking', body: 'Motorbike parking at the front entrance; cars in the basement.', tags: ['location'] });
    await knowledge({ topic: 'secret', locale: 'en', title: DRAFT_DOC, body: DRAFT_DOC, tags: ['policy'] }, false);
    const archived = await knowledge({ topic: 'old-rule', locale: 'en', title: ARCHIVED_DOC, body: ARCHIVED_DOC, tags: ['policy'] });
    expect((await server.request('POST', `/api/ai/knowledge/${archived}/archive`, { headers: ADMIN })).status).to.equal(200);
  });

  after(() => server.close());

  it('lists published shows compactly: showUrl, price-from for one guest, next dates with booking pages', async () => {
    const body = await ok('/api/ai/customer-support/catalog/shows');
    expect(body.locale).to.equal('en');
    expect(body.currency).to.equal('VND');
    expect(body.timeZone).to.equal(ZONE);
    expect(body.items.map((s: { slug: string }) => s.slug)).to.deep.equal(['saigon-cabaret', 'lotus-dreams']);
    const [sgc, lot] = body.items;
    expect(sgc).to.include({ code: 'SGC', title: 'Saigon Cabaret', summary: 'A night of song', description: 'Ninety minutes of music', durationMinutes: 90, minimumAge: 18, showUrl: `${SITE}/en/shows/saigon-cabaret` });
    // The age rule (issue 34 §3): null is every age.
    expect(lot.minimumAge).to.equal(null);
    expect(sgc.priceFromVnd).to.equal(quote(900_000, 1, RULES).totalVnd);
    expect(sgc.nextDates.map((e: { eventSlug: string }) => e.eventSlug)).to.deep.equal([slugs.open, slugs.limited, slugs.salesClosed, slugs.far]);
    expect(sgc.nextDates[0]).to.deep.equal({ eventSlug: slugs.open, date: d(3), time: '19:30', availability: 'AVAILABLE', bookingUrl: `${SITE}/en/book/${slugs.open}` });
    expect(sgc.nextDates[1]).to.include({ availability: 'LIMITED', bookingUrl: `${SITE}/en/book/${slugs.limited}` });
    expect(sgc.nextDates[2]).to.include({ availability: 'CLOSED', bookingUrl: null });
    expect(lot.priceFromVnd, 'the all-shows offer').to.equal(quote(900_000, 1, RULES).totalVnd);
  });

  it('lists upcoming events over local dates (default two weeks) with availability and bookingUrl', async () => {
    const body = await ok('/api/ai/customer-support/catalog/events');
    expect(body).to.include({ from: today, to: d(13), timeZone: ZONE, locale: 'en', limit: 50, offset: 0 });
    expect(body.items.map((e: { eventSlug: string }) => e.eventSlug)).to.deep.equal([slugs.open, slugs.lotus, slugs.limited, slugs.salesClosed]);
    expect(body.total).to.equal(4);
    const open = body.items[0];
    expect(open).to.deep.equal({
      eventSlug: slugs.open,
      date: d(3),
      time: '19:30',
      doorsTime: '18:30',
      show: { slug: 'saigon-cabaret', title: 'Saigon Cabaret', showUrl: `${SITE}/en/shows/saigon-cabaret` },
      availability: 'AVAILABLE',
      seatsLeft: 120,
      bookingUrl: `${SITE}/en/book/${slugs.open}`,
    });
    expect(body.items[1]).to.include({ doorsTime: null, time: '21:00' });
    expect(body.items[2]).to.include({ availability: 'LIMITED', seatsLeft: null });
    expect(body.items[3]).to.include({ availability: 'CLOSED', bookingUrl: null });

    const narrowed = await ok(`/api/ai/customer-support/catalog/events?from=${d(3)}&to=${d(3)}&show=lotus-dreams&locale=vi`);
    expect(narrowed.items.map((e: { eventSlug: string }) => e.eventSlug)).to.deep.equal([slugs.lotus]);
    expect(narrowed.items[0].show.showUrl).to.equal(`${SITE}/vi/shows/lotus-dreams`);
    expect((await ok(`/api/ai/customer-support/catalog/events?from=${d(0)}&to=${d(60)}`)).items.map((e: { eventSlug: string }) => e.eventSlug)).to.include(slugs.far);
    expect((await ok('/api/ai/customer-support/catalog/events?show=no-such-show')).items).to.deep.equal([]);
    const paged = await ok('/api/ai/customer-support/catalog/events?limit=1&offset=1');
    expect(paged.items.map((e: { eventSlug: string }) => e.eventSlug)).to.deep.equal([slugs.lotus]);
    expect(paged.total).to.equal(4);
  });

  it('refuses bad date ranges on events: 400 for non-dates, 422 for reversed or too long', async () => {
    expect((await get('/api/ai/customer-support/catalog/events?from=2026-13-45')).status).to.equal(400);
    const reversed = await get(`/api/ai/customer-support/catalog/events?from=${d(5)}&to=${d(1)}`);
    expect(reversed.status).to.equal(422);
    expect(reversed.body.code).to.equal('invalid_date_range');
    const long = await get(`/api/ai/customer-support/catalog/events?from=${d(0)}&to=${d(200)}`);
    expect(long.status).to.equal(422);
    expect(long.body.code).to.equal('date_range_too_long');
  });

  it('answers availability for a local date and a party size', async () => {
    const two = await ok(`/api/ai/customer-support/catalog/availability?date=${d(3)}&guests=2`);
    expect(two).to.include({ date: d(3), guests: 2, available: true, timeZone: ZONE, inquiryUrl: `${SITE}/en/inquiries` });
    expect(two.events.map((e: { eventSlug: string }) => e.eventSlug)).to.deep.equal([slugs.open, slugs.lotus]);
    expect(two.events[0]).to.deep.equal({
      eventSlug: slugs.open,
      time: '19:30',
      show: { slug: 'saigon-cabaret', title: 'Saigon Cabaret', showUrl: `${SITE}/en/shows/saigon-cabaret` },
      availability: 'AVAILABLE',
      fit: 'FITS',
      offerCodes: ['SGC-DINNER', 'SHOW-ONLY'],
      bookingUrl: `${SITE}/en/book/${slugs.open}`,
    });
    expect(two.events[1]).to.include({ fit: 'FITS' });
    expect(two.events[1].offerCodes).to.deep.equal(['SHOW-ONLY']);

    const one = await ok(`/api/ai/customer-support/catalog/availability?date=${d(3)}&show=saigon-cabaret`);
    expect(one.guests).to.equal(1);
    expect(one.events[0].offerCodes, 'the dinner takes 2 to 8').to.deep.equal(['SHOW-ONLY']);

    const seven = await ok(`/api/ai/customer-support/catalog/availability?date=${d(3)}&guests=7`);
    expect(seven.events.map((e: { fit: string }) => e.fit)).to.deep.equal(['FITS', 'PARTY_SIZE_NOT_OFFERED']);
    expect(seven.events[1].bookingUrl).to.equal(null);

    const large = await ok(`/api/ai/customer-support/catalog/availability?date=${d(3)}&guests=40`);
    expect(large.available).to.equal(false);
    expect(large.events.every((e: { fit: string }) => e.fit === 'PARTY_SIZE_NOT_OFFERED')).to.equal(true);

    // Capacity 8 (LIMITED, no count shown): a party of 8 fits, more than the seats left does not.
    const limited = await ok(`/api/ai/customer-support/catalog/availability?date=${d(4)}&guests=8`);
    expect(limited.events[0]).to.include({ availability: 'LIMITED', fit: 'FITS' });
    const hold = await server.request('POST', '/api/public/reservations', {
      headers: { 'x-forwarded-for': '203.0.113.77' },
      body: { eventSlug: slugs.limited, offerCode: 'SGC-DINNER', guestCount: 3, contact: { name: 'Guest', email: 'guest@example.com', phone: '+84 90 123 4567', locale: 'en' } },
    });
    expect(hold.status, hold.text).to.equal(201);
    const crowded = await ok(`/api/ai/customer-support/catalog/availability?date=${d(4)}&guests=6`);
    expect(crowded.events[0]).to.include({ fit: 'NOT_ENOUGH_SEATS', bookingUrl: null });
    expect(crowded.available).to.equal(false);

    expect((await ok(`/api/ai/customer-support/catalog/availability?date=${d(5)}`)).events[0]).to.include({ availability: 'CLOSED', fit: 'CLOSED' });
    expect((await ok(`/api/ai/customer-support/catalog/availability?date=${d(6)}`)).events, 'cancelled is not upcoming').to.deep.equal([]);
    expect((await ok(`/api/ai/customer-support/catalog/availability?date=${d(-2)}`)).events).to.deep.equal([]);
    expect((await get('/api/ai/customer-support/catalog/availability')).status, 'date is required').to.equal(400);
    expect((await get(`/api/ai/customer-support/catalog/availability?date=${d(3)}&guests=0`)).status).to.equal(400);
  });

  it("gives an event's booking options with prices, guest limits and bookingUrl", async () => {
    const body = await ok(`/api/ai/customer-support/catalog/booking-options?event=${slugs.open}&guests=3&locale=vi`);
    expect(body.locale).to.equal('vi');
    expect(body.currency).to.equal('VND');
    expect(body.event).to.deep.equal({
      eventSlug: slugs.open,
      date: d(3),
      time: '19:30',
      show: { slug: 'saigon-cabaret', title: 'Sài Gòn Cabaret', showUrl: `${SITE}/vi/shows/saigon-cabaret` },
      availability: 'AVAILABLE',
      seatsLeft: 120,
    });
    expect(body.bookable).to.equal(true);
    expect(body.guestLimits).to.deep.equal({ min: 1, max: 8 });
    expect(body.bookingUrl).to.equal(`${SITE}/vi/book/${slugs.open}`);
    expect(body.offers.map((o: { code: string }) => o.code)).to.deep.equal(['SGC-DINNER', 'SHOW-ONLY']);
    const [dinner, showOnly] = body.offers;
    const { currency: _c, ...perGuest } = quote(1_500_000, 1, RULES);
    const { currency: _p, ...forThree } = quote(1_500_000, 3, RULES);
    expect(dinner).to.deep.equal({
      code: 'SGC-DINNER',
      name: 'Ăn tối và xem show',
      description: dinner.description,
      bookingPath: 'DINNER_SHOW',
      minGuests: 2,
      maxGuests: 8,
      perGuest,
      forParty: forThree,
      includes: [{ name: 'Thực đơn', kind: 'MEAL', quantityPerGuest: 1, dietaryTags: ['vegetarian-option'] }],
    });
    expect(showOnly.forParty.totalVnd).to.equal(quote(900_000, 3, RULES).totalVnd);
    const nine = await ok(`/api/ai/customer-support/catalog/booking-options?event=${slugs.open}&guests=9`);
    expect(nine.offers.map((o: { forParty: unknown }) => o.forParty), 'outside every offer’s limits').to.deep.equal([null, null]);
    expect((await ok(`/api/ai/customer-support/catalog/booking-options?event=${slugs.open}`)).offers[0].forParty).to.equal(null);

    const closed = await ok(`/api/ai/customer-support/catalog/booking-options?event=${slugs.salesClosed}`);
    expect(closed).to.include({ bookable: false, bookingUrl: null });
    expect(closed.event.availability).to.equal('CLOSED');
    const cancelled = await ok(`/api/ai/customer-support/catalog/booking-options?event=${slugs.cancelled}`);
    expect(cancelled).to.include({ bookable: false, bookingUrl: null, guestLimits: null });
    expect(cancelled.offers).to.deep.equal([]);
    expect((await ok(`/api/ai/customer-support/catalog/booking-options?event=${slugs.past}`)).offers).to.deep.equal([]);

    for (const slug of [slugs.draft, 'no-such-event']) {
      const missing = await get(`/api/ai/customer-support/catalog/booking-options?event=${slug}`);
      expect(missing.status).to.equal(404);
      expect(missing.text).not.to.include(DRAFT_TITLE);
    }
    expect((await get('/api/ai/customer-support/catalog/booking-options')).status).to.equal(400);
  });

  it('resolves the public routes as absolute, locale-prefixed URLs', async () => {
    const en = await ok('/api/ai/customer-support/catalog/routes');
    expect(en.locale).to.equal('en');
    expect(en.baseUrl).to.equal(`${SITE}/en`);
    expect(en.locales).to.deep.equal(['en', 'vi']);
    expect(en.pages).to.deep.equal({
      home: `${SITE}/en`,
      shows: `${SITE}/en/shows`,
      inquiries: `${SITE}/en/inquiries`,
      waitlist: `${SITE}/en/waitlist`,
      partners: `${SITE}/en/partners`,
      // Issue 36 §1: the assistant can say gift vouchers exist and link the page (getSiteRoutes' `giftVouchers`).
      giftVouchers: `${SITE}/en/gift-vouchers`,
    });
    expect(en.patterns).to.deep.equal({ show: `${SITE}/en/shows/{slug}`, booking: `${SITE}/en/book/{eventSlug}` });
    expect(en.shows).to.deep.equal([
      { slug: 'saigon-cabaret', title: 'Saigon Cabaret', showUrl: `${SITE}/en/shows/saigon-cabaret` },
      { slug: 'lotus-dreams', title: 'Lotus Dreams', showUrl: `${SITE}/en/shows/lotus-dreams` },
    ]);
    const booked = en.events.map((e: { eventSlug: string }) => e.eventSlug);
    expect(booked, 'bookable ones only').to.include.members([slugs.open, slugs.lotus, slugs.far]);
    expect(booked).not.to.include.members([slugs.salesClosed, slugs.cancelled, slugs.draft, slugs.past]);
    expect(en.events.find((e: { eventSlug: string }) => e.eventSlug === slugs.open)).to.deep.equal({
      eventSlug: slugs.open,
      showSlug: 'saigon-cabaret',
      date: d(3),
      time: '19:30',
      bookingUrl: `${SITE}/en/book/${slugs.open}`,
    });

    // The same URLs the other reads hand out.
    const shows = await ok('/api/ai/customer-support/catalog/shows');
    expect(shows.items.map((s: { showUrl: string }) => s.showUrl)).to.deep.equal(en.shows.map((s: { showUrl: string }) => s.showUrl));
    const events = await ok(`/api/ai/customer-support/catalog/events?to=${d(60)}`);
    const urls = events.items.flatMap((e: { bookingUrl: string | null }) => (e.bookingUrl ? [e.bookingUrl] : []));
    expect(urls.every((url: string) => en.events.some((e: { bookingUrl: string }) => e.bookingUrl === url))).to.equal(true);

    const vi = await ok('/api/ai/customer-support/catalog/routes?locale=vi');
    expect(vi.pages.home).to.equal(`${SITE}/vi`);
    expect(vi.shows[0]).to.deep.equal({ slug: 'saigon-cabaret', title: 'Sài Gòn Cabaret', showUrl: `${SITE}/vi/shows/saigon-cabaret` });
  });

  it('falls back to the default locale for text and URLs when the locale is unknown or text is missing', async () => {
    const fr = await get('/api/ai/customer-support/catalog/routes?locale=fr');
    expect(fr.headers.get('content-language')).to.equal('en');
    expect(fr.body.pages.home).to.equal(`${SITE}/en`);
    const vi = await get('/api/ai/customer-support/catalog/shows?locale=vi');
    expect(vi.headers.get('content-language')).to.equal('vi');
    expect(vi.body.items[0]).to.include({ title: 'Sài Gòn Cabaret', summary: 'Một đêm ca nhạc', description: 'Chín mươi phút âm nhạc', showUrl: `${SITE}/vi/shows/saigon-cabaret` });
    expect(vi.body.items[1], 'no vi text: the en one').to.include({ title: 'Lotus Dreams', summary: 'Lotus summary' });
    expect((await get('/api/ai/customer-support/catalog/shows?locale=not_a_locale!')).status).to.equal(400);
  });

  it('serves published knowledge only, per topic in the locale with the default locale filling in', async () => {
    const en = await ok('/api/ai/customer-support/knowledge');
    expect(en.locale).to.equal('en');
    expect(en.items.map((k: { topic: string }) => k.topic)).to.deep.equal(['children', 'dress-code', 'parking']);
    expect(en.items[1]).to.deep.equal({ topic: 'dress-code', locale: 'en', title: 'Dress code', body: 'Smart casual. No flip-flops in the dining room.', tags: ['policy', 'dress-code'] });

    const vi = await get('/api/ai/customer-support/knowledge?locale=vi');
    expect(vi.headers.get('content-language')).to.equal('vi');
    expect(vi.body.items.map((k: { topic: string; locale: string }) => `${k.topic}/${k.locale}`)).to.deep.equal(['children/en', 'dress-code/vi', 'parking/en']);

    expect((await ok('/api/ai/customer-support/knowledge?tag=policy')).items.map((k: { topic: string }) => k.topic)).to.deep.equal(['dress-code']);
    expect((await ok('/api/ai/customer-support/knowledge?tag=nothing')).items).to.deep.equal([]);
  });

  it('finds knowledge by words: accents and case ignored, prefixes, title hits first', async () => {
    const topics = async (path: string) => (await ok(path)).items.map((k: { topic: string }) => k.topic);
    expect(await topics('/api/ai/customer-support/knowledge?q=Can%20I%20bring%20my%20CHILD%3F')).to.deep.equal(['children']);
    expect(await topics('/api/ai/customer-support/knowledge?q=where%20to%20park%20a%20motorbike')).to.deep.equal(['parking']);
    expect(await topics(`/api/ai/customer-support/knowledge?locale=vi&q=${encodeURIComponent('dep tong')}`)).to.deep.equal(['dress-code']);
    expect(await topics(`/api/ai/customer-support/knowledge?locale=vi&q=${encodeURIComponent('TRANG PHỤC')}`)).to.deep.equal(['dress-code']);
    expect(await topics('/api/ai/customer-support/knowledge?q=dining%20children')).to.deep.equal(['children', 'dress-code']);
    expect(await topics('/api/ai/customer-support/knowledge?q=helicopter')).to.deep.equal([]);
    expect(await topics('/api/ai/customer-support/knowledge?q=what%20is%20the'), 'no usable word: everything').to.have.length(3);
    expect(await topics('/api/ai/customer-support/knowledge?limit=1')).to.deep.equal(['children']);
  });

  it('is cacheable: Cache-Control, a strong ETag, 304 on If-None-Match, another ETag per locale', async () => {
    const paths = [
      '/api/ai/customer-support/catalog/shows',
      '/api/ai/customer-support/catalog/events',
      `/api/ai/customer-support/catalog/availability?date=${d(3)}`,
      `/api/ai/customer-support/catalog/booking-options?event=${slugs.open}`,
      '/api/ai/customer-support/catalog/routes',
      '/api/ai/customer-support/knowledge',
    ];
    for (const path of paths) {
      const first = await get(path);
      expect(first.status, path).to.equal(200);
      expect(first.headers.get('cache-control'), path).to.equal('public, max-age=60');
      const etag = first.headers.get('etag')!;
      expect(etag, path).to.match(/^"[A-Za-z0-9_-]{32}"$/);
      const again = await get(path, { 'if-none-match': etag });
      expect(again.status, path).to.equal(304);
      expect(again.text, path).to.equal('');
      expect(again.headers.get('etag'), path).to.equal(etag);
      expect((await get(path, { 'if-none-match': '"something-else"' })).status, path).to.equal(200);
      const sep = path.includes('?') ? '&' : '?';
      expect((await get(`${path}${sep}locale=vi`)).headers.get('etag'), path).not.to.equal(etag);
    }
  });

  it('changes the knowledge ETag when a document changes', async () => {
    const before = (await get('/api/ai/customer-support/knowledge')).headers.get('etag')!;
    const id = (await server.db.knex('knowledge_documents').where({ topic: 'parking', locale: 'en' }).first('id')).id;
    const res = await server.request('PATCH', `/api/ai/knowledge/${id}`, { headers: ADMIN, body: { body: 'Motorbike parking at the front entrance; cars in the basement (free).' } });
    expect(res.status).to.equal(200);
    const after = await get('/api/ai/customer-support/knowledge', { 'if-none-match': before });
    expect(after.status).to.equal(200);
    expect(after.body.items.find((k: { topic: string }) => k.topic === 'parking').body).to.include('(free)');
  });

  it('is public, reads only, and never shows staff-only keys or values', async () => {
    for (const path of PATHS) expect((await get(`/api/ai/customer-support/catalog/${path}`)).status, path).to.be.oneOf([200, 400]);
    const post = await server.request('POST', '/api/ai/customer-support/catalog/shows', { unchecked: true });
    expect(post.status).to.be.oneOf([401, 404, 405]);
    const leaks: string[] = [];
    for (const res of seen) {
      // Problem bodies (RFC 9457) carry their own `status`; answers are scanned key by key.
      if (res.status === 200) for (const key of keysOf(res.body)) if (STAFF_ONLY_KEYS.has(key)) leaks.push(`${key} in ${res.text.slice(0, 80)}`);
      for (const value of [STAFF_NOTE, CANCEL_REASON, DRAFT_TITLE, DRAFT_DOC, ARCHIVED_DOC, 'DRF-OFFER', 'SGC-OLD', cabaret.id, lotus.id]) {
        if (res.text.includes(value)) leaks.push(`${value} in ${res.text.slice(0, 80)}`);
      }
    }
    expect(seen.filter((res) => res.status === 200).length).to.be.greaterThan(40);
    expect(leaks).to.deep.equal([]);
  });
});
