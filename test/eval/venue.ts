import { DateTime } from 'luxon';
import type { TestServer } from '../helpers/server.ts';

/**
 * What the evaluation knows about the venue: read at run time through the assistant-safe routes (the ones the
 * assistant's tools call, server/assistant/venueData.ts), never written here. Every expected fact of a question
 * comes from these answers.
 */
export type Locale = 'en' | 'vi';

export interface EventFact {
  eventSlug: string;
  showSlug: string;
  date: string;
  time: string;
  availability: string;
  seatsLeft: number | null;
  bookingUrl: { en: string | null; vi: string | null };
}

export interface OfferFact {
  code: string;
  minGuests: number;
  maxGuests: number;
  perGuestTotalVnd: number;
}

export interface ShowFact {
  slug: string;
  title: Record<Locale, string>;
  summary: Record<Locale, string>;
  description: Record<Locale, string>;
  durationMinutes: number;
  priceFromVnd: number;
  showUrl: Record<Locale, string>;
  /** Offers of the show's next bookable event (prices per guest, VAT and service included). */
  offers: OfferFact[];
}

export interface KnowledgeDoc {
  topic: string;
  locale: Locale;
  title: string;
  body: string;
  tags: string[];
}

export interface Venue {
  site: string;
  timeZone: string;
  /** Today in the venue's time zone (`YYYY-MM-DD`). */
  today: string;
  shows: ShowFact[];
  events: EventFact[];
  knowledge: Record<Locale, KnowledgeDoc[]>;
  routes: Record<Locale, { pages: Record<string, string>; patterns: Record<string, string>; urls: Set<string> }>;
  /** E-mail addresses and phone numbers published in the contact document(s). */
  publishedContacts: { emails: string[]; phones: string[] };
  /** The events changed by the evaluation's set-up to have a sold-out case (see soldOutOne). */
  soldOut: string[];
  /** Words with Vietnamese letters that the venue's English texts hold (street names, instruments): an English answer may quote them. */
  vietnameseNamesInEnglish: Set<string>;
  get: <T = any>(path: string) => Promise<T>;
}

const CATALOG = '/api/ai/customer-support/catalog';

export async function readVenue(server: TestServer, site: string): Promise<Venue> {
  async function get<T = any>(path: string): Promise<T> {
    const res = await server.request<T>('GET', path);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.text.slice(0, 300)}`);
    return res.body;
  }
  const timeZone = server.config.venueTimezone;
  const today = DateTime.now().setZone(timeZone).toISODate()!;
  const to = DateTime.fromISO(today, { zone: timeZone }).plus({ days: 20 }).toISODate()!;

  const [showsEn, showsVi] = await Promise.all([get(`${CATALOG}/shows?locale=en`), get(`${CATALOG}/shows?locale=vi`)]);
  const events: EventFact[] = [];
  const bookingVi = new Map<string, string | null>();
  for (let offset = 0; ; ) {
    const [pageEn, pageVi] = await Promise.all([get(`${CATALOG}/events?locale=en&from=${today}&to=${to}&limit=50&offset=${offset}`), get(`${CATALOG}/events?locale=vi&from=${today}&to=${to}&limit=50&offset=${offset}`)]);
    for (const item of pageVi.items) bookingVi.set(item.eventSlug, item.bookingUrl ?? null);
    for (const item of pageEn.items)
      events.push({ eventSlug: item.eventSlug, showSlug: item.show.slug, date: item.date, time: item.time, availability: item.availability, seatsLeft: item.seatsLeft ?? null, bookingUrl: { en: item.bookingUrl ?? null, vi: null } });
    offset += pageEn.items.length;
    if (!pageEn.items.length || offset >= pageEn.total) break;
  }
  for (const event of events) event.bookingUrl.vi = bookingVi.get(event.eventSlug) ?? null;

  const shows: ShowFact[] = [];
  for (const en of showsEn.items) {
    const vi = showsVi.items.find((item: any) => item.slug === en.slug);
    const next = events.find((event) => event.showSlug === en.slug && event.availability !== 'SOLD_OUT' && event.availability !== 'CLOSED');
    const options = next ? await get(`${CATALOG}/booking-options?locale=en&event=${next.eventSlug}`) : { offers: [] };
    shows.push({
      slug: en.slug,
      title: { en: en.title, vi: vi?.title ?? en.title },
      summary: { en: en.summary ?? '', vi: vi?.summary ?? '' },
      description: { en: en.description ?? '', vi: vi?.description ?? '' },
      durationMinutes: en.durationMinutes,
      priceFromVnd: en.priceFromVnd,
      showUrl: { en: en.showUrl, vi: vi?.showUrl ?? en.showUrl },
      offers: options.offers.map((offer: any) => ({ code: offer.code, minGuests: offer.minGuests, maxGuests: offer.maxGuests, perGuestTotalVnd: offer.perGuest.totalVnd })),
    });
  }

  const knowledge = { en: [] as KnowledgeDoc[], vi: [] as KnowledgeDoc[] };
  const routes = {} as Venue['routes'];
  for (const locale of ['en', 'vi'] as const) {
    const docs = await get(`/api/ai/customer-support/knowledge?locale=${locale}&limit=100`);
    knowledge[locale] = docs.items.map((doc: any) => ({ topic: doc.topic, locale, title: doc.title, body: doc.body, tags: doc.tags ?? [] }));
    const r = await get(`${CATALOG}/routes?locale=${locale}`);
    const urls = new Set<string>([r.baseUrl, ...Object.values(r.pages as Record<string, string>), ...r.shows.map((s: any) => s.showUrl), ...r.events.map((e: any) => e.bookingUrl)]);
    routes[locale] = { pages: r.pages, patterns: r.patterns, urls };
  }
  const contactText = [...knowledge.en, ...knowledge.vi].filter((doc) => doc.tags.includes('contact')).map((doc) => doc.body).join('\n');
  const publishedContacts = { emails: findEmails(contactText), phones: findPhones(contactText).map(digits) };
  const english = [...knowledge.en.map((doc) => `${doc.title} ${doc.body}`), ...shows.map((show) => `${show.title.en} ${show.summary.en} ${show.description.en}`)].join(' ');
  const vietnameseNamesInEnglish = new Set(
    english
      .split(/[^\p{L}]+/u)
      .filter((word) => /[^\x00-\x7f]/.test(word))
      .map((word) => word.toLowerCase()),
  );
  return { site, timeZone, today, shows, events, knowledge, routes, publishedContacts, soldOut: [], vietnameseNamesInEnglish, get };
}

/**
 * The demo venue has no sold-out performance, so the set-up makes one as staff would: through the admin API, one
 * performance that already has bookings gets its capacity lowered to the seats taken. Availability questions then
 * read the sold-out state back through the assistant-safe routes like every other fact.
 */
export async function soldOutOne(server: TestServer, token: string): Promise<string[]> {
  const headers = { 'x-api-token': token };
  const list = await server.request<any>('GET', '/api/show-events?limit=100', { headers });
  if (list.status !== 200) return [];
  const today = DateTime.now().setZone(server.config.venueTimezone).toISODate()!;
  const events = await server.request<any>('GET', `${CATALOG}/events?locale=en&from=${today}&limit=50`);
  for (const item of events.body.items ?? []) {
    const row = list.body.items.find((event: any) => event.slug === item.eventSlug);
    if (!row || item.seatsLeft == null) continue;
    const taken = row.capacity - item.seatsLeft;
    if (taken < 1 || item.date === today) continue;
    const res = await server.request('PATCH', `/api/show-events/${row.id}`, { headers, body: { capacity: taken } });
    if (res.status === 200) return [item.eventSlug];
  }
  return [];
}

export const findEmails = (text: string) => [...text.matchAll(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g)].map((m) => m[0].toLowerCase());
/** Phone-like runs: a `+` or a leading 0 and at least 8 digits with spaces, dots or dashes between. */
export const findPhones = (text: string) => [...text.matchAll(/(?:\+\d{1,3}[\s.-]?)?\(?0?\d{2,4}\)?(?:[\s.-]?\d{2,4}){2,4}/g)].map((m) => m[0]).filter((m) => digits(m).length >= 9 && /^[+0(]/.test(m.trim()));
export const digits = (text: string) => text.replace(/\D/g, '');

export function showBySlug(venue: Venue, slug: string): ShowFact {
  return venue.shows.find((show) => show.slug === slug)!;
}

export function eventsOn(venue: Venue, from: string, to = from, show?: string): EventFact[] {
  return venue.events.filter((event) => event.date >= from && event.date <= to && (!show || event.showSlug === show));
}

export function addDays(date: string, days: number): string {
  return DateTime.fromISO(date).plus({ days }).toISODate()!;
}
