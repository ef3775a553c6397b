import { expect } from 'chai';
import { unwrap, type VenueClient } from '../../../sdk/index.ts';
import { DEMO_COMMERCIAL_SETUP, DEMO_KNOWLEDGE, DEMO_SHOWS, seed } from '../../../seed/index.ts';
import { addDays, localToday } from '../../../server/domain/venueTime.ts';
import { startTestServer, SUPERUSER_TOKEN, type TestResponse, type TestServer } from '../../helpers/server.ts';
import { keysOf, STAFF_ONLY_KEYS } from '../catalog/helpers.ts';

/**
 * The assistant-safe data over the demo venue as `npm start` seeds it (through the API, knowledge included):
 * every link any read hands out is one of `catalog/routes`' URLs, the seeded knowledge answers in both locales
 * and agrees with the commercial setup, and no read shows a staff-only key, a row id, staff notes or drafts.
 */

const SITE = 'https://demo.example';
const STAFF_NOTE = 'STAFFNOTE-assistant-4711';
const DRAFT_DOC = 'DRAFTDOC-assistant-0815';
const PASSWORDS = { admin: 'admin password 1', marketing: 'marketing password 1', staff: 'staff password 1' };

describe('assistant-safe data of the demo venue', () => {
  let server: TestServer;
  let sdk: VenueClient;
  const answers: TestResponse[] = [];
  const ids: string[] = [];

  async function read(path: string) {
    const res = await server.request('GET', path);
    expect(res.status, `${path}: ${res.text}`).to.equal(200);
    answers.push(res);
    return res.body;
  }

  before(async () => {
    server = await startTestServer({ config: { publicSiteUrl: SITE } });
    sdk = server.client({ superuserToken: SUPERUSER_TOKEN });
    const result = await seed({ client: sdk, passwords: PASSWORDS });
    expect(result.steps.find((step) => step.resource === 'knowledge')).to.include({ created: DEMO_KNOWLEDGE.length, updated: 0, unchanged: 0 });
    const events = unwrap(await sdk.GET('/api/show-events', { params: { query: { limit: 5, from: addDays(localToday(server.config.venueTimezone), 1) } } })).items;
    for (const event of events) {
      unwrap(await sdk.PATCH('/api/show-events/{eventId}', { params: { path: { eventId: event.id } }, body: { staffNotes: STAFF_NOTE } }));
      ids.push(event.id, event.showId);
    }
    unwrap(await sdk.POST('/api/ai/knowledge', { body: { topic: 'internal-note', locale: 'en', title: DRAFT_DOC, body: DRAFT_DOC } }));
  });

  after(() => server.close());

  it('seeds every knowledge topic in English and Vietnamese, published, consistent with the commercial setup', async () => {
    const topics = [...new Set(DEMO_KNOWLEDGE.map((doc) => doc.topic))];
    for (const topic of ['dress-code', 'children', 'dietary-options', 'arrival-time', 'parking', 'cancellation-refund', 'private-events', 'accessibility', 'contact-location']) {
      expect(topics).to.include(topic);
    }
    for (const locale of ['en', 'vi']) {
      const body = await read(`/api/ai/customer-support/knowledge?locale=${locale}`);
      expect(body.items.map((doc: { topic: string }) => doc.topic).sort()).to.deep.equal([...topics].sort());
      expect(body.items.every((doc: { locale: string }) => doc.locale === locale), locale).to.equal(true);
      const policy = body.items.find((doc: { topic: string }) => doc.topic === 'cancellation-refund');
      expect(policy.body).to.include(`${DEMO_COMMERCIAL_SETUP.cancellationWindowHours}`);
    }
    const found = await read(`/api/ai/customer-support/knowledge?locale=vi&q=${encodeURIComponent('hủy đặt chỗ có được hoàn tiền không')}`);
    expect(found.items[0].topic).to.equal('cancellation-refund');
    const parking = await read('/api/ai/customer-support/knowledge?q=where%20can%20I%20park%20my%20car');
    expect(parking.items[0].topic).to.equal('parking');
  });

  it('hands out only links that catalog/routes lists, in both locales', async () => {
    for (const locale of ['en', 'vi']) {
      const routes = await read(`/api/ai/customer-support/catalog/routes?locale=${locale}`);
      const known = new Set<string>([...Object.values<string>(routes.pages), ...routes.shows.map((s: { showUrl: string }) => s.showUrl), ...routes.events.map((e: { bookingUrl: string }) => e.bookingUrl)]);
      expect(routes.shows.map((s: { slug: string }) => s.slug)).to.deep.equal(DEMO_SHOWS.map((s) => s.slug));
      expect(routes.events.length).to.be.greaterThan(50);
      const shows = await read(`/api/ai/customer-support/catalog/shows?locale=${locale}`);
      const events = await read(`/api/ai/customer-support/catalog/events?locale=${locale}&limit=100`);
      const firstDate = events.items[0].date;
      const availability = await read(`/api/ai/customer-support/catalog/availability?locale=${locale}&date=${firstDate}&guests=2`);
      const options = await read(`/api/ai/customer-support/catalog/booking-options?locale=${locale}&event=${events.items[0].eventSlug}&guests=2`);
      const urls = [...keysAndUrls(shows), ...keysAndUrls(events), ...keysAndUrls(availability), ...keysAndUrls(options)];
      expect(urls.length).to.be.greaterThan(20);
      for (const url of urls) {
        expect(url.startsWith(`${SITE}/${locale}`), url).to.equal(true);
        expect(known.has(url), url).to.equal(true);
      }
      expect(shows.items.every((s: { priceFromVnd: number | null }) => Number.isInteger(s.priceFromVnd))).to.equal(true);
      expect(options.offers.length).to.be.greaterThan(0);
    }
  });

  it('shows no staff-only key, row id, staff note or draft knowledge in any read', async () => {
    expect(answers.length).to.be.greaterThan(10);
    for (const res of answers) {
      const staffKeys = [...keysOf(res.body)].filter((key) => STAFF_ONLY_KEYS.has(key));
      expect(staffKeys, res.text.slice(0, 100)).to.deep.equal([]);
      for (const value of [STAFF_NOTE, DRAFT_DOC, ...ids]) expect(res.text.includes(value), value).to.equal(false);
    }
  });

  it('a second seed leaves the knowledge unchanged; an edited demo document is set back, an archived one left alone', async () => {
    const again = await seed({ client: sdk, passwords: {} });
    expect(again.steps.find((step) => step.resource === 'knowledge')).to.include({ created: 0, updated: 0, unchanged: DEMO_KNOWLEDGE.length });
    const docs = unwrap(await sdk.GET('/api/ai/knowledge', { params: { query: { limit: 100 } } })).items;
    const parking = docs.find((doc) => doc.topic === 'parking' && doc.locale === 'en')!;
    const dress = docs.find((doc) => doc.topic === 'dress-code' && doc.locale === 'vi')!;
    unwrap(await sdk.PATCH('/api/ai/knowledge/{documentId}', { params: { path: { documentId: parking.id } }, body: { body: 'Edited by an operator.' } }));
    unwrap(await sdk.POST('/api/ai/knowledge/{documentId}/archive', { params: { path: { documentId: dress.id } } }));
    const third = await seed({ client: sdk, passwords: {} });
    expect(third.steps.find((step) => step.resource === 'knowledge')).to.include({ created: 0, updated: 1, unchanged: DEMO_KNOWLEDGE.length - 1 });
    expect(unwrap(await sdk.GET('/api/ai/knowledge/{documentId}', { params: { path: { documentId: parking.id } } })).body).to.equal(DEMO_KNOWLEDGE.find((doc) => doc.topic === 'parking' && doc.locale === 'en')!.body);
    expect(unwrap(await sdk.GET('/api/ai/knowledge/{documentId}', { params: { path: { documentId: dress.id } } })).status).to.equal('ARCHIVED');
    const vi = (await server.request('GET', '/api/ai/customer-support/knowledge?locale=vi&tag=dress-code')).body;
    expect(vi.items.map((doc: { locale: string }) => doc.locale), 'the archived vi text falls back to en').to.deep.equal(['en']);
  });
});

/** Every absolute URL value in a JSON answer. */
function keysAndUrls(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string' && /^https?:\/\//.test(value)) found.push(value);
  else if (Array.isArray(value)) for (const item of value) keysAndUrls(item, found);
  else if (value && typeof value === 'object') for (const inner of Object.values(value)) keysAndUrls(inner, found);
  return found;
}
