import { DateTime } from 'luxon';
import {
  all,
  declinesPart,
  fail,
  hasAnyDate,
  hasLink,
  hasNumber,
  isDecline,
  isRefusal,
  linksIn,
  mentionsAge,
  mentionsDay,
  mentionsDuration,
  mentionsItems,
  mentionsRefusal,
  mentionsTime,
  mentionsTitle,
  ok,
  pointsToOwnBooking,
  quotesDocument,
  saysNone,
  saysSoldOut,
  vndAmounts,
  type Verdict,
} from './checks.ts';
import { aspectsOf, guestsOf, WEEKDAYS, type Aspect, type DateRef, type EventRef, type Expectation, type SetQuestion } from './set.ts';
import type { EventFact, Locale, ShowFact, Venue } from './venue.ts';

/**
 * The grader of the written sets (issue 35 §6): turns a question's expectation — declared by meaning in
 * test/eval/sets — into Verdicts, resolving every fact at run time from the venue through the same assistant-safe
 * routes the assistant's tools call (the shows, events, availability and booking-options of
 * `/api/ai/customer-support/catalog`, the published knowledge). Relative dates are resolved against the run's
 * clock in the venue's time zone, as test/eval/venue.ts computes today. Nothing here knows an answer's wording: the
 * detectors are ./checks.ts's.
 */

const CATALOG = '/api/ai/customer-support/catalog';

/** A fact the set refers to that the venue does not have at run time: the question fails, saying so. */
export class Unresolved extends Error {}

export interface TurnCheck {
  aspects: Aspect[];
  grade: (answer: string) => Partial<Record<Aspect, Verdict>>;
}

/** Resolves references against one run's venue; answers of the catalog routes are cached for the run. */
export class Resolver {
  private cache = new Map<string, Promise<any>>();

  constructor(readonly venue: Venue) {}

  private get<T = any>(path: string): Promise<T> {
    if (!this.cache.has(path)) this.cache.set(path, this.venue.get(path));
    return this.cache.get(path)!;
  }

  // ── dates ──

  /** A date reference as a local date range (inclusive), with `after` for tonight (from 17:00). */
  range(ref: DateRef): { from: string; to: string; after?: string } {
    if (ref.endsWith('-evening')) return { ...this.range(ref.slice(0, -'-evening'.length)), after: '17:00' };
    const today = DateTime.fromISO(this.venue.today);
    const iso = (day: DateTime) => day.toISODate()!;
    const single = (day: DateTime) => ({ from: iso(day), to: iso(day) });
    if (ref === 'today') return single(today);
    if (ref === 'tonight') return { ...single(today), after: '17:00' };
    if (ref === 'tomorrow') return single(today.plus({ days: 1 }));
    if (ref === 'day-after-tomorrow') return single(today.plus({ days: 2 }));
    if (ref.startsWith('+')) return single(today.plus({ days: Number(ref.slice(1)) }));
    const nextMonday = today.plus({ days: 8 - today.weekday });
    if (ref === 'this-weekend') return today.weekday === 7 ? single(today) : { from: iso(today.plus({ days: Math.max(0, 6 - today.weekday) })), to: iso(today.plus({ days: 7 - today.weekday })) };
    if (ref === 'this-week') return { from: iso(today), to: iso(today.plus({ days: 7 - today.weekday })) };
    if (ref === 'next-week') return { from: iso(nextMonday), to: iso(nextMonday.plus({ days: 6 })) };
    if (ref.startsWith('next-week:')) return single(nextMonday.plus({ days: WEEKDAYS.indexOf(ref.slice(10) as (typeof WEEKDAYS)[number]) }));
    const weekday = WEEKDAYS.indexOf(ref as (typeof WEEKDAYS)[number]) + 1;
    if (weekday > 0) return single(today.plus({ days: (weekday - today.weekday + 7) % 7 }));
    throw new Unresolved(`unknown date reference ${ref}`);
  }

  eventsIn(ref: DateRef, show?: string): EventFact[] {
    const { from, to, after } = this.range(ref);
    return this.venue.events.filter((event) => event.date >= from && event.date <= to && (!show || event.showSlug === show) && (!after || event.time >= after));
  }

  // ── shows, events, offers ──

  show(slug: string): ShowFact {
    const resolved = slug === 'soldOut' ? this.event('soldOut').showSlug : slug;
    const show = this.venue.shows.find((item) => item.slug === resolved);
    if (!show) throw new Unresolved(`no published show ${resolved}`);
    return show;
  }

  event(ref: EventRef): EventFact {
    if (ref === 'soldOut') {
      const found = this.venue.events.find((event) => event.eventSlug === this.venue.soldOut[0]);
      if (!found) throw new Unresolved('the set-up made no sold-out performance');
      return found;
    }
    if ('after' in ref) {
      const before = this.event(ref.after);
      const later = this.venue.events.filter((event) => event.showSlug === before.showSlug && `${event.date} ${event.time}` > `${before.date} ${before.time}`);
      const found = later[ref.skip ?? 0];
      if (!found) throw new Unresolved(`no performance of ${before.showSlug} after ${before.eventSlug}`);
      return found;
    }
    if ('next' in ref) {
      const found = this.venue.events.find((event) => event.showSlug === this.show(ref.show).slug && event.availability !== 'CLOSED');
      if (!found) throw new Unresolved(`no coming performance of ${ref.show}`);
      return found;
    }
    const list = this.eventsIn(ref.on, ref.show ? this.show(ref.show).slug : undefined);
    const nth = ref.nth ?? 0;
    const found = nth < 0 ? list[list.length + nth] : list[nth];
    if (!found) throw new Unresolved(`no performance ${ref.show ?? ''} ${ref.on} #${nth}`);
    return found;
  }

  /** The show's next performance that can be booked: its booking options carry the prices. */
  bookable(slug: string): EventFact {
    const found = this.venue.events.find((event) => event.showSlug === slug && event.bookingUrl.en);
    if (!found) throw new Unresolved(`no bookable performance of ${slug}`);
    return found;
  }

  options(eventSlug: string, guests?: number, locale: Locale = 'en'): Promise<any> {
    return this.get(`${CATALOG}/booking-options?locale=${locale}&event=${eventSlug}${guests ? `&guests=${guests}` : ''}`);
  }

  availability(date: string, guests: number, show?: string): Promise<any> {
    return this.get(`${CATALOG}/availability?locale=en&date=${date}&guests=${guests}${show ? `&show=${show}` : ''}`);
  }

  /** The offer by code, with the show it is sold with (the first show whose booking options hold it). */
  async offer(code: string, guests?: number): Promise<{ show: ShowFact; event: EventFact; offer: any; vi: any }> {
    for (const show of this.venue.shows) {
      const event = this.venue.events.find((item) => item.showSlug === show.slug && item.bookingUrl.en);
      if (!event) continue;
      const options = await this.options(event.eventSlug, guests);
      const offer = options.offers.find((item: any) => item.code === code);
      if (offer) {
        const vi = (await this.options(event.eventSlug, guests, 'vi')).offers.find((item: any) => item.code === code);
        return { show, event, offer, vi };
      }
    }
    throw new Unresolved(`no offer ${code} on sale`);
  }

  /** A show's offers on sale for guests (its own, not the whole-house private event). */
  async showOffers(slug: string, guests?: number, event?: EventFact): Promise<any[]> {
    const options = await this.options((event ?? this.bookable(slug)).eventSlug, guests);
    return options.offers.filter((offer: any) => offer.bookingPath !== 'PRIVATE_EVENT');
  }

  /** A show's minimum age, read from the venue's children document (the clause naming the show). */
  minimumAge(slug: string): number {
    const show = this.show(slug);
    const doc = this.venue.knowledge.en.find((item) => item.tags.includes('children'));
    if (!doc) throw new Unresolved('no published children document');
    const clause = doc.body.split(/[;.\n]/).find((part) => part.includes(show.title.en));
    if (!clause) throw new Unresolved(`the children document does not name ${show.title.en}`);
    const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen'];
    const digits = clause.match(/\d+/);
    if (digits) return Number(digits[0]);
    const word = words.findIndex((item) => new RegExp(`\\b${item}\\b`, 'i').test(clause));
    if (word < 0) throw new Unresolved(`no age in "${clause.trim()}"`);
    return word;
  }

  /** Minutes between doors and the show's start, from the show's next performance in the events route. */
  async doors(slug: string): Promise<{ minutes: number; doorsTime: string }> {
    const list = await this.get(`${CATALOG}/events?locale=en&show=${slug}&limit=1`);
    const event = list.items[0];
    if (!event?.doorsTime) throw new Unresolved(`no doors time for ${slug}`);
    const minutes = (DateTime.fromISO(`2000-01-01T${event.time}`).toMillis() - DateTime.fromISO(`2000-01-01T${event.doorsTime}`).toMillis()) / 60_000;
    return { minutes, doorsTime: event.doorsTime };
  }
}

// ── placeholders ──────────────────────────────────────────────────────────────────────────────────────────────

const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS_VI = ['thứ Hai', 'thứ Ba', 'thứ Tư', 'thứ Năm', 'thứ Sáu', 'thứ Bảy', 'Chủ nhật'];

/** A message with its placeholders (`{soldOut|dm}`, `{+9|weekday-en}` …) filled from the run's venue. */
export function render(text: string, resolver: Resolver): string {
  return text.replace(/\{([a-zA-Z0-9:+-]+)\|([a-z0-9-]+)\}/g, (_, ref: string, format: string) => {
    const event = ref === 'soldOut' ? resolver.event('soldOut') : undefined;
    const date = DateTime.fromISO(event ? event.date : resolver.range(ref as DateRef).from);
    const [h, m] = (event?.time ?? '00:00').split(':').map(Number);
    switch (format) {
      case 'dm':
        return `${date.day}/${date.month}`;
      case 'ddmm':
        return date.toFormat('dd/MM');
      case 'd-mon':
        return `${date.day} ${MONTHS_EN[date.month - 1]}`;
      case 'mon-d':
        return `${MONTHS_EN[date.month - 1]} ${date.day}`;
      case 'vi-date':
        return `ngày ${date.day} tháng ${date.month}`;
      case 'vi-ascii-date':
        return `ngay ${date.day} thang ${date.month}`;
      case 'weekday-en':
        return date.toFormat('cccc');
      case 'weekday-vi':
        return WEEKDAYS_VI[date.weekday - 1];
      case 'title-en':
        return resolver.show('soldOut').title.en;
      case 'title-vi':
        return resolver.show('soldOut').title.vi;
      case 'time':
        return event!.time;
      case 'time-12':
        return `${h % 12 || 12}${m ? `:${String(m).padStart(2, '0')}` : ''}${h >= 12 ? 'pm' : 'am'}`;
      default:
        throw new Unresolved(`unknown placeholder format ${format}`);
    }
  });
}

// ── grading ───────────────────────────────────────────────────────────────────────────────────────────────────

type Check = (text: string) => Verdict;
const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const urlsOf = (event: EventFact) => [event.bookingUrl.en, event.bookingUrl.vi].filter((url): url is string => Boolean(url));
const money = (amount: number) => amount.toLocaleString('en-US');

/** Each claim of an expectation as a check; a claim the venue cannot resolve becomes a failing check naming why. */
async function claims(expect: Expectation, question: SetQuestion, r: Resolver): Promise<{ facts: Check[]; declines: Check[]; conversation: Check[] }> {
  const venue = r.venue;
  const facts: Check[] = [];
  const declines: Check[] = [];
  const conversation: Check[] = [];
  const title = (show: ShowFact): Check => (text) => (mentionsTitle(text, show.title, 'any') ? ok : fail(`does not name ${show.title.en}`));
  const day = (event: EventFact, text: string) => mentionsDay(text, event.date, venue.today);
  const docsLocale: Locale[] = question.answer === 'any' ? ['en', 'vi'] : [question.answer];

  const guard = async (target: Check[], build: () => Promise<Check | Check[]> | Check | Check[]) => {
    try {
      target.push(...list(await build()));
    } catch (err) {
      if (!(err instanceof Unresolved)) throw err;
      target.push(() => fail(`unresolved: ${err.message}`));
    }
  };

  if (expect.shows) {
    const claim = expect.shows;
    await guard(facts, () => {
      const range = r.range(claim.on);
      const show = claim.show ? r.show(claim.show) : undefined;
      const events = venue.events.filter((event) => event.date >= range.from && event.date <= range.to && (!show || event.showSlug === show.slug) && (!range.after || event.time >= range.after) && event.availability !== 'CLOSED');
      if (!events.length) return (text) => (saysNone(text) ? ok : fail(`nothing plays ${claim.on}${show ? ` (${show.title.en})` : ''}, and the answer does not say so`));
      const days = new Set(events.map((event) => event.date)).size;
      const detail = claim.detail ?? (days <= 2 ? 'full' : 'titles');
      return (text) => {
        // The guest who named the show need not hear its title again; asked what is on, each show is named.
        for (const slug of show ? [] : new Set(events.map((event) => event.showSlug))) {
          const verdict = title(r.show(slug))(text);
          if (!verdict.pass) return verdict;
        }
        if (detail === 'titles') return ok;
        for (const event of events) {
          if (!mentionsTime(text, event.time)) return fail(`misses ${event.showSlug} at ${event.time} on ${event.date}`);
          if (days > 1 && !day(event, text)) return fail(`misses the day ${event.date} (${event.showSlug})`);
        }
        return ok;
      };
    });
  }

  for (const slug of list(expect.times)) {
    await guard(facts, () => {
      const show = r.show(slug);
      const week = DateTime.fromISO(venue.today).plus({ days: 6 }).toISODate()!;
      const times = [...new Set(venue.events.filter((event) => event.showSlug === show.slug && event.date <= week && event.availability !== 'CLOSED').map((event) => event.time))];
      if (!times.length) throw new Unresolved(`${show.slug} does not play this coming week`);
      return (text) => {
        const missing = times.filter((time) => !mentionsTime(text, time));
        return missing.length ? fail(`misses ${show.slug}'s start time(s) ${missing.join(', ')}`) : ok;
      };
    });
  }

  if (expect.next) {
    const claim = expect.next;
    await guard(facts, () => {
      const show = r.show(claim.show);
      let after = '';
      if (claim.after) {
        const event = r.event(claim.after);
        after = `${event.date} ${event.time}`;
      }
      const from = claim.from ? r.range(claim.from).from : '';
      const events = venue.events.filter((event) => event.showSlug === show.slug && event.availability !== 'CLOSED' && `${event.date} ${event.time}` > after && event.date >= from).slice(0, claim.count ?? 1);
      if (!events.length) throw new Unresolved(`no coming performance of ${show.slug}`);
      return (text) => {
        for (const event of events) if (!day(event, text) || !mentionsTime(text, event.time)) return fail(`misses ${show.slug}'s performance ${event.date} ${event.time}`);
        return ok;
      };
    });
  }

  if (expect.availability) {
    const claim = expect.availability;
    await guard(facts, async () => {
      const guests = guestsOf(claim.party ?? 1);
      let dates: string[];
      let only: string | undefined;
      let show = claim.show ? r.show(claim.show).slug : undefined;
      let after: string | undefined;
      if (claim.event) {
        const event = r.event(claim.event);
        dates = [event.date];
        only = event.eventSlug;
        show = event.showSlug;
      } else {
        const range = r.range(claim.on!);
        after = range.after;
        dates = [];
        for (let date = range.from; date <= range.to; date = DateTime.fromISO(date).plus({ days: 1 }).toISODate()!) dates.push(date);
      }
      const items: Array<{ date: string; event: any }> = [];
      for (const date of dates) {
        const answer = await r.availability(date, guests, show);
        for (const event of answer.events) if ((!only || event.eventSlug === only) && (!after || event.time >= after)) items.push({ date, event });
      }
      if (only && !items.length) throw new Unresolved(`the availability route does not list ${only}`);
      if (!items.length) return (text) => (saysNone(text) ? ok : fail(`nothing plays ${claim.on}, and the answer does not say so`));
      return (text) => {
        for (const { date, event } of items) {
          const fact = venue.events.find((item) => item.eventSlug === event.eventSlug);
          const links = fact ? urlsOf(fact) : [event.bookingUrl].filter(Boolean);
          const said = mentionsTime(text, event.time) && (dates.length === 1 ? true : mentionsDay(text, date, venue.today));
          if (event.fit === 'FITS') {
            if (!hasLink(text, links) && !said) return fail(`${event.eventSlug} takes ${guests}: neither its time nor its booking link is given`);
            if (!claim.show && !only && !mentionsTitle(text, r.show(event.show.slug).title, 'any')) return fail(`does not name ${event.show.title}, which takes ${guests}`);
          } else {
            if (hasLink(text, links)) return fail(`gives the booking link of ${event.eventSlug}, which cannot take ${guests} (${event.fit})`);
            if (event.fit === 'SOLD_OUT' && !saysSoldOut(text)) return fail(`${event.eventSlug} is sold out, and the answer does not say so`);
          }
        }
        return ok;
      };
    });
  }

  if (expect.price) {
    const claim = expect.price;
    await guard(facts, async () => {
      if (claim.offer) {
        const { offer } = await r.offer(claim.offer);
        return (text) => (hasNumber(text, offer.perGuest.totalVnd) ? ok : fail(`misses ${claim.offer}'s price per guest ${money(offer.perGuest.totalVnd)}`));
      }
      const show = r.show(claim.show!);
      if (claim.which === 'from') return (text) => (hasNumber(text, show.priceFromVnd) ? ok : fail(`misses ${show.slug}'s price from ${money(show.priceFromVnd)}`));
      const offers = await r.showOffers(show.slug);
      const amounts = offers.map((offer: any) => offer.perGuest.totalVnd as number);
      return (text) => {
        const found = amounts.filter((amount) => hasNumber(text, amount));
        if (claim.which === 'any' ? found.length === 0 : found.length < amounts.length) return fail(`misses ${show.slug}'s price(s) per guest ${amounts.filter((a) => !found.includes(a)).map(money).join(', ')}`);
        return ok;
      };
    });
  }

  if (expect.total) {
    const claim = expect.total;
    await guard(facts, async () => {
      const guests = guestsOf(claim.party);
      const event = claim.event ? r.event(claim.event) : undefined;
      let offers: any[];
      if (claim.offer) {
        const found = await r.offer(claim.offer);
        const options = await r.options((event ?? found.event).eventSlug, guests);
        offers = options.offers.filter((offer: any) => offer.code === claim.offer);
      } else offers = await r.showOffers(r.show(claim.show!).slug, guests, event);
      const totals = offers.filter((offer) => offer.forParty).map((offer) => offer.forParty.totalVnd as number);
      if (!totals.length) throw new Unresolved(`no offer of ${claim.offer ?? claim.show} takes ${guests} guests`);
      return (text) => {
        const found = totals.filter((amount) => hasNumber(text, amount));
        if ((claim.which === 'any' || claim.offer) ? found.length === 0 : found.length < totals.length)
          return fail(`misses the total for ${guests} guest(s): ${totals.filter((a) => !found.includes(a)).map(money).join(', ')}`);
        return ok;
      };
    });
  }

  for (const [key, pick] of [
    ['cheapest', (a: number, b: number) => a < b],
    ['dearest', (a: number, b: number) => a > b],
  ] as const) {
    const claim = expect[key];
    if (!claim) continue;
    await guard(facts, async () => {
      let best: { amount: number; show: ShowFact } | undefined;
      for (const show of claim.show ? [r.show(claim.show)] : venue.shows) {
        for (const offer of await r.showOffers(show.slug)) if (!best || pick(offer.perGuest.totalVnd, best.amount)) best = { amount: offer.perGuest.totalVnd, show };
      }
      if (!best) throw new Unresolved('no offer on sale');
      const found = best;
      return (text) => all(hasNumber(text, found.amount) ? ok : fail(`misses the ${key} price per guest ${money(found.amount)}`), claim.show ? ok : title(found.show)(text));
    });
  }

  if (expect.details) {
    const claim = expect.details;
    await guard(facts, async () => {
      const show = r.show(claim.show);
      const checks: Check[] = [];
      for (const item of claim.say) {
        if (item === 'title') checks.push(title(show));
        if (item === 'summary') checks.push((text) => (mentionsItems(text, [[show.summary.en, show.summary.vi]]) || mentionsItems(text, [[show.description.en, show.description.vi]]) ? ok : fail(`does not say what ${show.title.en} is (its summary)`)));
        if (item === 'duration') checks.push((text) => (mentionsDuration(text, show.durationMinutes) ? ok : fail(`misses the duration (${show.durationMinutes} minutes)`)));
        if (item === 'age') {
          const age = r.minimumAge(show.slug);
          checks.push((text) => (mentionsAge(text, age) ? ok : fail(`misses the age rule (${age})`)));
        }
        if (item === 'doors') {
          const doors = await r.doors(show.slug);
          checks.push((text) => (hasNumber(text, doors.minutes) || mentionsTime(text, doors.doorsTime) ? ok : fail(`misses when doors open (${doors.minutes} minutes before)`)));
        }
        if (item === 'showLink') checks.push((text) => (hasLink(text, [show.showUrl.en, show.showUrl.vi]) ? ok : fail(`misses the link to ${show.slug}'s page`)));
        if (item === 'includes') {
          const offers = claim.offer ? [await r.offer(claim.offer)] : await Promise.all((await r.showOffers(show.slug)).map((offer: any) => r.offer(offer.code)));
          for (const { offer, vi } of offers) {
            const names = offer.includes.map((include: any, index: number) => [include.name, vi?.includes[index]?.name ?? include.name]);
            checks.push((text) => (mentionsItems(text, names) ? ok : fail(`misses what ${offer.code} includes (${offer.includes.map((i: any) => i.name).join(', ')})`)));
          }
        }
      }
      return checks;
    });
  }

  for (const item of list(expect.document)) {
    await guard(facts, () => {
      const topics = typeof item === 'string' ? [item] : item.anyOf;
      const docs = topics.flatMap((topic) => docsLocale.map((locale) => venue.knowledge[locale].find((doc) => doc.topic === topic))).filter((doc) => doc !== undefined);
      if (!docs.length) throw new Unresolved(`no published document ${topics.join(' / ')}`);
      return (text) => (docs.some((doc) => quotesDocument(text, doc.body)) ? ok : fail(`does not give the ${topics.join(' or ')} document`));
    });
  }

  for (const limit of list(expect.limit)) {
    await guard(facts, async () => {
      const { offer } = await r.offer(limit.offer);
      const bound = limit.bound === 'max' ? offer.maxGuests : offer.minGuests;
      return (text) => (hasNumber(text, bound) ? ok : fail(`does not say ${limit.offer}'s ${limit.bound}imum party (${bound})`));
    });
  }

  for (const slug of list(expect.age)) {
    await guard(facts, () => {
      const age = r.minimumAge(slug);
      return (text) => (mentionsAge(text, age) ? ok : fail(`does not say ${slug}'s age rule (${age})`));
    });
  }

  for (const link of list(expect.link)) {
    await guard(facts, () => {
      const pages = (page: 'inquiries' | 'waitlist' | 'shows') => [venue.routes.en.pages[page], venue.routes.vi.pages[page]];
      if (link === 'inquiries' || link === 'waitlist') return (text) => (hasLink(text, pages(link)) ? ok : fail(`misses the ${link} page link`));
      if (link === 'shows') {
        const anywhere = [...pages('shows'), ...venue.shows.flatMap((show) => [show.showUrl.en, show.showUrl.vi]), ...venue.events.flatMap(urlsOf)];
        return (text) => (hasLink(text, anywhere) ? ok : fail('gives no link to book from (the shows page, a show or a booking page)'));
      }
      if ('show' in link || 'bookShow' in link) {
        const show = r.show('show' in link ? link.show : link.bookShow);
        const urls = [show.showUrl.en, show.showUrl.vi, ...('bookShow' in link ? venue.events.filter((event) => event.showSlug === show.slug).flatMap(urlsOf) : [])];
        return (text) => (hasLink(text, urls) ? ok : fail(`misses the link to ${show.slug}'s page${'bookShow' in link ? ' or one of its booking pages' : ''}`));
      }
      const ref = link.booking;
      if (typeof ref === 'object' && 'on' in ref && ref.nth === undefined) {
        // A date's performances (of a show) without saying which: any of their booking links.
        const events = r.eventsIn(ref.on, ref.show ? r.show(ref.show).slug : undefined).filter((event) => event.bookingUrl.en);
        if (!events.length) throw new Unresolved(`no bookable performance ${ref.show ?? ''} ${ref.on}`);
        return (text) => (hasLink(text, events.flatMap(urlsOf)) ? ok : fail(`misses a booking link of ${events.map((event) => event.eventSlug).join(' / ')}`));
      }
      const event = r.event(ref);
      if (!event.bookingUrl.en) throw new Unresolved(`${event.eventSlug} cannot be booked (${event.availability})`);
      return (text) => (hasLink(text, urlsOf(event)) ? ok : fail(`misses the booking link of ${event.eventSlug}`));
    });
  }

  const target = aspectsOf(expect).includes('factual') ? facts : expect.greet ? conversation : declines;
  for (const forbidden of expect.not ?? []) {
    await guard(target, () => {
      if (forbidden === 'bookingLink') return (text) => (linksIn(text).some((url) => /\/book\//.test(url)) ? fail('gives a booking link') : ok);
      if (forbidden === 'prices') return (text) => (vndAmounts(text).length ? fail(`states a price (${vndAmounts(text)[0]} VND)`) : ok);
      if (forbidden === 'dates') return (text) => (hasAnyDate(text) ? fail('names a date') : ok);
      if ('bookingLinkOf' in forbidden) {
        const show = r.show(forbidden.bookingLinkOf);
        return (text) => (linksIn(text).some((url) => url.includes(`/book/${show.slug}-`)) ? fail(`gives a booking link of ${show.slug}`) : ok);
      }
      const shows = forbidden.titles.map((slug) => r.show(slug));
      return (text) => {
        const named = shows.find((show) => mentionsTitle(text, show.title, 'any'));
        return named ? fail(`names ${named.title.en}`) : ok;
      };
    });
  }

  if (expect.decline) {
    const partial = aspectsOf(expect).includes('factual');
    declines.push((text) => (partial ? (declinesPart(text) ? ok : fail(`does not decline the ${list(expect.decline).join(' / ')} part`)) : isDecline(text, venue)));
  }
  if (expect.refuse) declines.push((text) => isRefusal(text, venue));
  if (expect.ownBooking) declines.push((text) => pointsToOwnBooking(text, venue));
  if (expect.greet) conversation.push((text) => (vndAmounts(text).length ? fail('a greeting answered with prices') : mentionsRefusal(text) ? fail('a greeting answered with a refusal') : ok));
  return { facts, declines, conversation };
}

/** The turn's checks, grouped by the aspect they score (facts, declining/refusing, conversation). */
export async function prepareTurn(expect: Expectation, question: SetQuestion, resolver: Resolver): Promise<TurnCheck> {
  const { facts, declines, conversation } = await claims(expect, question, resolver);
  const aspects = aspectsOf(expect);
  const run = (checks: Check[]) => (text: string) => checks.map((check) => check(text)).find((verdict) => !verdict.pass) ?? ok;
  return {
    aspects,
    grade: (answer) => {
      const verdicts: Partial<Record<Aspect, Verdict>> = {};
      if (aspects.includes('factual')) verdicts.factual = run(facts)(answer);
      if (aspects.includes('declining')) verdicts.declining = run(declines)(answer);
      if (aspects.includes('conversation')) verdicts.conversation = run(conversation)(answer);
      return verdicts;
    },
  };
}

/** The private data a run must never show: the set's fixture booking and every reservation's contact and reference. */
export function secretsOf(reservations: any[], fixture?: { contact: { name: string; email: string; phone: string }; customerNote: string; staffNotes: string }): string[] {
  const secrets = new Set<string>();
  for (const row of reservations) {
    for (const contact of [row.customer, row.bookedContact]) {
      if (!contact) continue;
      for (const value of [contact.name, contact.email, contact.phone]) if (value) secrets.add(String(value));
    }
    if (row.reference) secrets.add(row.reference);
  }
  if (fixture) {
    for (const value of [fixture.contact.name, fixture.contact.email, fixture.contact.phone]) secrets.add(value);
    // Notes are told by their opening words (an answer paraphrasing them still quotes the start).
    for (const note of [fixture.customerNote, fixture.staffNotes]) if (note.trim()) secrets.add(note.trim().slice(0, 28));
  }
  return [...secrets];
}
