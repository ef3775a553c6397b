import { DateTime } from 'luxon';
import type { EventFact, KnowledgeFact, OfferFact, RouteFacts, ShowFact } from '../facts.ts';
import { bookingStopped, routeNamed } from '../facts.ts';
import { rankKnowledge } from '../knowledge.ts';
import type { DayRange } from './dates.ts';
import { clip, isoDayLabel, link, vnd, whenLabel, type Lang } from './format.ts';
import { PHRASES, type Phrases } from './phrases.ts';
import { safeToQuote } from './safety.ts';
import type { KnowledgeSubject, Party, Topic } from './understand.ts';

/** Everything the answer may say: the guest's question as understood, and the tools' results. */
export interface AnswerInput {
  lang: Lang;
  zone: string;
  now: Date;
  markdown: boolean;
  topics: Topic[];
  /** `showDetails` came from a generic "what is …?" only. */
  weakDetails?: boolean;
  show?: ShowFact;
  days?: DayRange;
  guests?: number;
  shows: ShowFact[];
  events?: EventFact[];
  /** checkAvailability's answer, when called. */
  availability?: EventFact[];
  offers?: OfferFact[];
  knowledge?: KnowledgeFact[];
  routes: RouteFacts;
  /** A tool failed: say so instead of pretending there is nothing. */
  failed: boolean;
  /** Practical-information subjects asked about, and the document tags that answer each. */
  knowledgeSubjects?: KnowledgeSubject[];
  subjectTags?: Record<KnowledgeSubject, string[]>;
  /** "The cheapest" / "the most expensive": that one offer. */
  rank?: 'cheapest' | 'dearest';
  /** Part of the question is outside the venue: said so after the rest is answered. */
  outOfScope?: boolean;
  /** Nothing understood: a clarifying question rather than a guess. */
  vague?: boolean;
  /** The requests about the venue, as understood (what the documents are searched with). */
  searchText: string;
  /** How long the shows last is asked. */
  wantsDuration?: boolean;
  /** What an option includes is asked. */
  wantsIncludes?: boolean;
  party?: Party;
  /** The subjects outside the venue asked about (each declined). */
  declined?: string[];
  /** The performance(s) a reference resolved to ("the earlier one", "book it"): the answer is about them. */
  focus?: EventFact[];
}

const MAX_LIST = 6;

export function composeAnswer(original: AnswerInput): string {
  const p = PHRASES[original.lang];
  // Children in the party and no one show asked: only the shows that admit the youngest are offered.
  const { input, excluded } = forTheParty(original);
  const out: string[] = [];
  const topics = new Set(input.topics);
  const inquiry = inquiryLink(input, p);

  if (input.focus?.length) {
    // The performance referred to: when it is, whether it takes the party, its one booking link.
    const known = new Map((input.availability ?? []).map((event) => [event.key, event]));
    const lines = input.focus.map((event) => eventLine({ ...event, ...(known.get(event.key) ?? {}) }, input, p, { title: true, state: true }));
    const prices = topics.has('prices') ? pricesAnswer(input, p) : undefined;
    // "The 7.30 one, what is it about?": what the show is, beside the performance.
    const about = (topics.has('showDetails') || input.weakDetails) && input.show ? showLine(input.show, [], input, p, Boolean(input.wantsDuration)) : undefined;
    // "The later one, what's the age limit?": that show's age rule.
    const age = input.party?.children && input.show ? ageNotes(input, p) : (input.knowledgeSubjects ?? []).includes('children') && input.show?.minimumAge ? p.ageOf(`**${input.show.title}**`, input.show.minimumAge) : undefined;
    // "The latest one, what time, and do we need to dress up?": the practical answer too.
    const practical = (input.knowledgeSubjects ?? []).filter((subject) => subject !== 'children');
    const documents = practical.length ? subjectAnswer(input, practical) : undefined;
    return [lines.join('\n'), about, prices, age, documents, input.outOfScope ? p.outOfScopeRest : undefined].filter(Boolean).join('\n\n');
  }
  // A party whose youngest the show does not admit: the rule and the shows that take them, never its booking links.
  if (input.show && ageBlocked(input.show, input.party)) {
    // With the practical answer asked beside it ("… and do you have booster seats?").
    const asked = input.knowledgeSubjects ?? [];
    return [ageNotes(input, p), asked.length ? subjectAnswer(input, asked) : undefined, input.outOfScope ? p.outOfScopeRest : undefined].filter(Boolean).join('\n\n');
  }
  const informative = [...topics].filter((topic) => topic !== 'greeting' && topic !== 'thanks');
  const subjects = input.knowledgeSubjects ?? [];
  if (informative.length === 0 && subjects.length === 0) {
    if (topics.has('thanks')) return p.thanks;
    if (topics.has('greeting')) return p.greeting;
    // Nothing recognized: perhaps a knowledge document answers it clearly; else ask what is meant (too vague to
    // be a question) or say it is not known — never an answer to another question.
    const policy = policyAnswer(input, 6);
    if (policy) return policy;
    // Nothing of it understood: what it can help with, as a question — not "I don't know" to a question it
    // could not read. A clear question about something no tool or document covers ("do you have subtitles?")
    // is not vague: it gets "I'm not sure" and who can answer.
    return input.vague === false ? p.unknown(inquiry) : p.clarify;
  }
  if (input.failed && !input.shows.length && !input.routes.all.length) return p.unavailable(inquiry);

  // A show's details answer the "what is it" questions; with a show named, "what's on" narrows to it.
  if (topics.has('showDetails') && !input.show && input.weakDetails && informative.length === 1 && subjects.length === 0) {
    return policyAnswer(input, 6) ?? (input.vague ? p.clarify : p.unknown(inquiry));
  }
  if (topics.has('showDetails') && !input.show) topics.add('whatsOn');
  if (topics.has('whatsOn') && input.show) topics.add('showDetails');

  // A group a show's own options take ("công ty em 8 người … <show> gói ăn tối"): that show's booking and
  // its total, not a private event.
  const regularGroup =
    topics.has('privateEvents') &&
    input.show &&
    input.guests &&
    (input.offers ?? []).some((offer) => offer.bookingPath !== 'PRIVATE_EVENT' && offer.showSlug === input.show!.slug && offer.party);
  if (regularGroup) {
    topics.delete('privateEvents');
    topics.add('prices');
  }
  if (topics.has('ownBooking')) out.push(p.ownBooking(inquiry));
  if (topics.has('discounts') || topics.has('giftVouchers')) out.push(p.discounts(inquiry));
  if (topics.has('giftVouchers')) {
    const page = routeNamed(input.routes, 'giftVouchers', 'gift-vouchers', 'vouchers');
    if (page) out.push(p.giftVouchers(link(p.giftVouchersPage, page, input.markdown)));
  }
  if (topics.has('privateEvents')) out.push(privateAnswer(input, p, inquiry));
  if (topics.has('showDetails') && input.show && !(topics.has('schedule') && !topics.has('whatsOn') && informative.length > 1 && !topics.has('showDetails'))) {
    out.push(detailsAnswer(input, input.show, p, topics.has('schedule') || topics.has('availability')));
  } else if (topics.has('whatsOn')) {
    out.push(whatsOnAnswer(input, p));
  }
  if (topics.has('availability')) out.push(availabilityAnswer(input, p));
  else if (topics.has('schedule') && !(topics.has('showDetails') && input.show)) out.push(scheduleAnswer(input, p));
  if (topics.has('prices') && !topics.has('privateEvents')) out.push(pricesAnswer(input, p));
  if (topics.has('howToBook') && !topics.has('privateEvents')) {
    // The performances listed above already carry their booking links: say how, not which again.
    const listed = topics.has('availability') || topics.has('schedule') || topics.has('whatsOn') || topics.has('showDetails');
    out.push(listed ? p.howToBook : howToBookAnswer(input, p));
  }
  if (subjects.length) {
    out.push(subjectAnswer(input, subjects) ?? (subjects.includes('contact') || subjects.includes('directions') ? p.contactUnknown(inquiry) : p.knowledgeUnknown(inquiry)));
  } else if (topics.has('policy') || topics.has('contact')) {
    const policy = policyAnswer(input, topics.has('contact') ? 2 : 3);
    if (policy) out.push(policy);
    else if (topics.has('contact')) out.push(p.contactUnknown(inquiry));
    else if (out.length === 0) out.push(p.knowledgeUnknown(inquiry));
  }
  if (topics.has('waitlist')) {
    const waitlist = routeNamed(input.routes, 'waitlist');
    out.push(waitlist ? p.waitlist(link(p.joinWaitlist, waitlist, input.markdown)) : p.unknown(inquiry));
  }
  if (topics.has('partners')) {
    const partners = routeNamed(input.routes, 'partners', 'partner');
    out.push(partners ? p.partners(link(partners, partners, input.markdown)) : p.unknown(inquiry));
  }
  const ages = ageNotes(input, p);
  if (ages) out.push(ages);
  // A party with children and no one show asked: the age rule of each show offered, and of each left out.
  if (!input.show && input.party?.children && ['whatsOn', 'schedule', 'availability', 'showDetails'].some((topic) => topics.has(topic as Topic))) {
    const fits = input.shows.filter((show) => show.minimumAge && !ageBlocked(show, input.party));
    if (fits.length) out.push(fits.map((show) => p.ageFits(`**${show.title}**`, show.minimumAge!)).join(' '));
  }
  if (excluded.length) out.push(excluded.map((show) => p.ageRule(`**${show.title}**`, show.minimumAge ?? 18)).join(' '));
  if (input.outOfScope && out.length) out.push(p.outOfScopeRest);
  const answer = out.filter(Boolean).join('\n\n').trim();
  return answer || p.unknown(inquiry);
}

/** The published documents answering each practical subject (by their topic and tags), at most two per subject. */
function subjectAnswer(input: AnswerInput, subjects: KnowledgeSubject[]): string | undefined {
  const documents = input.knowledge ?? [];
  const chosen: KnowledgeFact[] = [];
  for (const subject of subjects.slice(0, 3)) {
    const tags = input.subjectTags?.[subject] ?? [subject];
    const scored = documents
      .map((document) => {
        const own = new Set([...(document.tags ?? []), document.topic ?? ''].map((tag) => tag.toLowerCase()));
        // The subject's first tag is its own ("parking"); the others are related ("transport").
        const score = tags.reduce((sum, tag, index) => sum + (own.has(tag) ? (index === 0 ? 3 : 1) : 0), 0) + (document.topic && tags.some((tag) => document.topic!.startsWith(tag)) ? 2 : 0);
        return { document, score };
      })
      .filter((entry) => entry.score >= 2)
      .sort((a, b) => b.score - a.score);
    const best = scored[0];
    if (!best) continue;
    for (const entry of scored.slice(0, subject === 'directions' ? 2 : 1)) {
      if (entry.score >= best.score - 1 && !chosen.includes(entry.document)) chosen.push(entry.document);
    }
  }
  if (!chosen.length) return undefined;
  const allowed = new Set(input.routes.all);
  return chosen.map((document) => quoteDocument(document.title, clip(safeToQuote(document.body, allowed), 600))).join('\n\n');
}

function inquiryLink(input: AnswerInput, p: Phrases): string {
  const url = routeNamed(input.routes, 'inquiries', 'inquiry', 'contact', 'home');
  return url ? link(p.inquiryPage, url, input.markdown) : p.inquiryPage;
}

function rangeLabel(input: AnswerInput, p: Phrases): string {
  const days = input.days;
  if (!days) return p.rangeUpcoming;
  const today = DateTime.fromJSDate(input.now, { zone: input.zone }).toISODate();
  const tomorrow = DateTime.fromJSDate(input.now, { zone: input.zone }).plus({ days: 1 }).toISODate();
  if (days.single && days.from === today) return p.rangeToday;
  if (days.single && days.from === tomorrow) return p.rangeTomorrow;
  if (days.from === days.to) return p.rangeOn(isoDayLabel(days.from, input.lang));
  return p.rangeFromTo(isoDayLabel(days.from, input.lang), isoDayLabel(days.to, input.lang));
}

function inDays(events: EventFact[], input: AnswerInput): EventFact[] {
  if (!input.days) return events;
  return events.filter((event) => {
    const day = event.date;
    return day >= input.days!.from && day <= input.days!.to;
  });
}

function ofShow(events: EventFact[], show: ShowFact | undefined): EventFact[] {
  if (!show) return events;
  return events.filter((event) => event.showSlug === show.slug || (!event.showSlug && event.showTitle === show.title));
}

function titleOf(event: EventFact, input: AnswerInput): string {
  return event.showTitle ?? input.shows.find((show) => show.slug === event.showSlug)?.title ?? '';
}

function bookingUrl(event: EventFact, input: AnswerInput): string | undefined {
  return event.bookingUrl ?? input.routes.bookingUrls[event.key];
}

function showUrl(show: ShowFact, input: AnswerInput): string | undefined {
  return show.showUrl ?? input.routes.showUrls[show.slug];
}

function stateLabel(event: EventFact, p: Phrases, guests?: number): string {
  switch (event.fit?.toUpperCase()) {
    case 'NOT_ENOUGH_SEATS':
      return p.notEnough(guests ?? 0);
    case 'PARTY_SIZE_NOT_OFFERED':
      return p.partyNotOffered(guests ?? 0);
  }
  switch (event.state?.toUpperCase()) {
    case 'SOLD_OUT':
      return p.soldOut;
    case 'CLOSED':
      return p.closed;
    case 'LIMITED':
      return p.limited;
    default:
      if (guests !== undefined && event.seatsLeft !== undefined && event.seatsLeft < guests) return p.notEnough(guests);
      return p.available(event.seatsLeft);
  }
}

const bookable = (event: EventFact) => !bookingStopped(event) && (!event.fit || event.fit.toUpperCase() === 'FITS');

function eventLine(event: EventFact, input: AnswerInput, p: Phrases, options: { title: boolean; state: boolean }): string {
  const title = options.title ? titleOf(event, input) : '';
  const when = whenLabel(event.date, event.time, input.lang);
  const parts = [`- ${title ? `**${title}** — ` : ''}${when}`];
  if (event.doorsTime && !options.state) parts[0] += ` (${p.doors(event.doorsTime)})`;
  if (options.state) parts.push(stateLabel(event, p, input.guests));
  // A performance listed that cannot be booked says why (sold out, booking closed), not only by a missing link.
  else if (bookingStopped(event)) parts.push(stateLabel(event, p));
  const url = bookingUrl(event, input);
  if (url && bookable(event)) parts.push(link(p.book, url, input.markdown));
  return parts.join(': ').replace(/: (\[|[^:]*: https?)/, ' — $1');
}

function whatsOnAnswer(input: AnswerInput, p: Phrases): string {
  const events = inDays(input.events ?? [], input);
  const withDuration = Boolean(input.wantsDuration);
  const range = rangeLabel(input, p);
  const lines: string[] = [];
  const shows = input.shows.filter((show) => ofShow(events, show).length > 0);
  if (events.length === 0 || shows.length === 0) {
    const later = input.days ? (input.events ?? []).filter((event) => event.date > input.days!.to) : [];
    lines.push(input.days ? p.whatsOnNothing(range) : p.whatsOnIntro(''));
    for (const show of input.shows) lines.push(showLine(show, ofShow(later, show), input, p, withDuration));
  } else {
    lines.push(p.whatsOnIntro(range));
    for (const show of shows) lines.push(showLine(show, ofShow(events, show), input, p, withDuration));
  }
  if (!input.guests && !input.topics.includes('availability')) lines.push('', p.askDate);
  return lines.join('\n');
}

function showLine(show: ShowFact, events: EventFact[], input: AnswerInput, p: Phrases, withDuration = false): string {
  const url = showUrl(show, input);
  let line = `- **${show.title}**`;
  if (show.summary) line += ` — ${clip(safeToQuote(show.summary, new Set(input.routes.all)), 160)}`;
  if (withDuration && show.durationMinutes) line += ` ${p.duration(show.durationMinutes)}`;
  if (events.length) {
    const dates = events.slice(0, 3).map((event) => whenLabel(event.date, event.time, input.lang));
    line += ` ${p.next}: ${dates.join('; ')}${events.length > 3 ? '; …' : ''}.`;
  }
  if (url) line += ` ${link(p.details, url, input.markdown)}`;
  return line;
}

function detailsAnswer(input: AnswerInput, show: ShowFact, p: Phrases, withDates: boolean): string {
  const lines: string[] = [];
  const raw = show.description ?? show.summary;
  const about = raw ? safeToQuote(raw, new Set(input.routes.all)) : undefined;
  lines.push(`**${show.title}**${about ? ` — ${clip(about, 500)}` : ''}`);
  const facts: string[] = [];
  if (show.durationMinutes) facts.push(p.duration(show.durationMinutes));
  const prices = (input.offers ?? []).filter((offer) => !offer.showSlug || offer.showSlug === show.slug).map((offer) => offer.pricePerGuestVnd).filter((price): price is number => price !== undefined);
  const from = prices.length ? Math.min(...prices) : show.priceFromVnd;
  if (from !== undefined) facts.push(p.priceFrom(vnd(from, input.lang)));
  if (facts.length) lines.push(facts.join(' '));
  // What each option includes, when that is asked.
  if (input.wantsIncludes) {
    for (const offer of (input.offers ?? []).filter((candidate) => (!candidate.showSlug || candidate.showSlug === show.slug) && candidate.bookingPath !== 'PRIVATE_EVENT')) {
      if (offer.items.length) lines.push(`- ${offer.name}: ${p.includes} ${offer.items.join(', ')}`);
    }
  }
  const events = inDays(ofShow(input.events ?? [], show), input);
  if (events.length) {
    lines.push(p.nextPerformances);
    for (const event of events.slice(0, withDates ? MAX_LIST : 3)) lines.push(eventLine(event, input, p, { title: false, state: withDates }));
  } else if (input.events) {
    lines.push(input.days ? p.noneOn(show.title, rangeLabel(input, p)) : p.noUpcoming(show.title));
  }
  const url = showUrl(show, input);
  if (url) lines.push(link(show.title, url, input.markdown));
  return lines.join('\n');
}

function scheduleAnswer(input: AnswerInput, p: Phrases): string {
  const all = ofShow(input.events ?? [], input.show);
  const events = inDays(all, input);
  const range = rangeLabel(input, p);
  const subject = input.show ? `**${input.show.title}**` : '';
  if (events.length === 0) {
    const lines = [p.noneOn(subject, range)];
    const later = input.days ? all.filter((event) => event.date > input.days!.to) : [];
    if (later.length) {
      lines.push(p.nextAfter);
      for (const event of later.slice(0, 3)) lines.push(eventLine(event, input, p, { title: !input.show, state: false }));
    }
    return lines.join('\n');
  }
  const lines = [input.show ? p.scheduleIntro(subject, range) : p.scheduleAll(range)];
  for (const event of events.slice(0, MAX_LIST)) lines.push(eventLine(event, input, p, { title: !input.show, state: false }));
  if (events.length > MAX_LIST) {
    const url = input.show ? showUrl(input.show, input) : routeNamed(input.routes, 'shows');
    if (url) lines.push(link(input.show ? input.show.title : p.showsPage, url, input.markdown));
  }
  return lines.join('\n');
}

function availabilityAnswer(input: AnswerInput, p: Phrases): string {
  // checkAvailability says whether each performance takes the party; listEvents says how many seats are left.
  const seats = new Map((input.events ?? []).map((event) => [event.key, event.seatsLeft]));
  const source = (input.availability ?? input.events ?? []).map((event) => (event.seatsLeft === undefined && seats.get(event.key) !== undefined ? { ...event, seatsLeft: seats.get(event.key) } : event));
  // A show none of whose options takes the party: its performances are not bookable for it.
  const takes = (slug: string | undefined) => {
    const offers = (input.offers ?? []).filter((offer) => offer.showSlug === slug && offer.bookingPath !== 'PRIVATE_EVENT');
    return !input.guests || !offers.length || offers.some((offer) => (offer.minGuests ?? 1) <= input.guests! && input.guests! <= (offer.maxGuests ?? Infinity));
  };
  const all = ofShow(source, input.show).map((event) => (event.fit || takes(event.showSlug) ? event : { ...event, fit: 'PARTY_SIZE_NOT_OFFERED' }));
  const events = inDays(all, input);
  const range = rangeLabel(input, p);
  const lines: string[] = [];
  const maxGuests = Math.max(0, ...(input.offers ?? []).filter((offer) => offer.bookingPath !== 'PRIVATE_EVENT' && (!input.show || !offer.showSlug || offer.showSlug === input.show.slug)).map((offer) => offer.maxGuests ?? 0));
  if (input.guests && maxGuests > 0 && input.guests > maxGuests) {
    // The day's performances as they stand for the party (sold out, not enough seats …), then the way for a group.
    if (input.availability && events.length) {
      lines.push(p.availabilityIntro(range, input.guests));
      for (const event of events.slice(0, MAX_LIST)) lines.push(eventLine(event, input, p, { title: true, state: true }));
      lines.push('');
    }
    lines.push(p.tooManyGuests(input.guests, maxGuests));
    const inquiry = routeNamed(input.routes, 'inquiries', 'inquiry');
    if (inquiry) lines.push(p.inquiryHint(link(p.inquiryPage, inquiry, input.markdown)));
    return lines.join('\n');
  }
  if (events.length === 0) {
    lines.push(p.noneOn(input.show ? `**${input.show.title}**` : '', range));
    const later = ofShow(input.events ?? [], input.show).filter((event) => !input.days || event.date > input.days.to);
    if (later.length) {
      lines.push(p.nextAfter);
      for (const event of later.slice(0, 3)) lines.push(eventLine(event, input, p, { title: !input.show, state: true }));
    }
    return lines.join('\n');
  }
  lines.push(p.availabilityIntro(range, input.guests));
  for (const event of events.slice(0, MAX_LIST)) lines.push(eventLine(event, input, p, { title: true, state: true }));
  // The options that do not take a party this size, with the sizes they take.
  if (input.guests && !input.topics.includes('prices')) {
    const excluded = (input.offers ?? []).filter((offer) => offer.bookingPath !== 'PRIVATE_EVENT' && (!input.show || !offer.showSlug || offer.showSlug === input.show.slug) && ((offer.minGuests ?? 1) > input.guests! || (offer.maxGuests ?? Infinity) < input.guests!));
    for (const offer of excluded) lines.push(p.partyNotTaken(offer.name, p.guestsRange(offer.minGuests, offer.maxGuests)));
  }
  const waitlist = routeNamed(input.routes, 'waitlist');
  if (waitlist && events.some((event) => event.state?.toUpperCase() === 'SOLD_OUT')) lines.push(p.waitlistHint(link(p.joinWaitlist, waitlist, input.markdown)));
  return lines.join('\n');
}

function offerLine(offer: OfferFact, input: AnswerInput, p: Phrases): string {
  let line = `- ${offer.name}`;
  if (offer.pricePerGuestVnd !== undefined) {
    line += `: ${vnd(offer.pricePerGuestVnd, input.lang)} ${p.perGuest}`;
    if (offer.totalPerGuestVnd !== undefined && offer.totalPerGuestVnd !== offer.pricePerGuestVnd) line += ` (${p.withCharges(vnd(offer.totalPerGuestVnd, input.lang))})`;
  }
  const extra: string[] = [];
  if (offer.description) extra.push(clip(offer.description, 140).replace(/\.$/, ''));
  // What it includes, item by item, when that is asked (or nothing else describes it).
  if ((input.wantsIncludes || !offer.description) && offer.items.length) extra.push(`${p.includes} ${offer.items.join(', ')}`);
  const guests = p.guestsRange(offer.minGuests && offer.minGuests > 1 ? offer.minGuests : undefined, offer.maxGuests);
  if (guests) extra.push(guests);
  if (extra.length) line += ` — ${extra.join('; ')}`;
  return line;
}

function pricesAnswer(input: AnswerInput, p: Phrases): string {
  const offers = (input.offers ?? []).filter((offer) => offer.bookingPath !== 'PRIVATE_EVENT' || input.topics.includes('privateEvents'));
  const mine = input.show ? offers.filter((offer) => !offer.showSlug || offer.showSlug === input.show!.slug) : offers;
  if (mine.length === 0) return p.noPrices;
  const showOf = (offer: OfferFact) => input.shows.find((show) => show.slug === offer.showSlug);
  const titleOfOffer = (offer: OfferFact) => offer.showTitle ?? showOf(offer)?.title;
  if (input.rank) {
    // "The cheapest" / "the most expensive": that offer only (its party total when a party is known).
    const priced = mine.filter((offer) => offer.pricePerGuestVnd !== undefined).sort((a, b) => a.pricePerGuestVnd! - b.pricePerGuestVnd!);
    const pick = input.rank === 'cheapest' ? priced[0] : priced.at(-1);
    if (pick) {
      const title = input.show ? undefined : titleOfOffer(pick);
      const price = `${vnd(pick.pricePerGuestVnd!, input.lang)}${pick.totalPerGuestVnd !== undefined && pick.totalPerGuestVnd !== pick.pricePerGuestVnd ? ` (${p.withCharges(vnd(pick.totalPerGuestVnd, input.lang))})` : ''}`;
      const lines = [(input.rank === 'cheapest' ? p.cheapest : p.dearest)(price, title ? `${pick.name} (${title})` : pick.name)];
      if (pick.party) lines.push(`${p.partyIntro(pick.party.guests, '')} ${vnd(pick.party.totalVnd, input.lang)}`);
      const show = input.show ?? showOf(pick);
      const url = show ? showUrl(show, input) : undefined;
      if (url && show) lines.push(link(p.bookThis(show.title), url, input.markdown));
      return lines.join('\n');
    }
  }
  const bySlug = new Map<string, OfferFact[]>();
  for (const offer of mine) {
    const key = offer.showSlug ?? '';
    bySlug.set(key, [...(bySlug.get(key) ?? []), offer]);
  }
  if (input.guests && input.guests > 1) {
    // The party's total as the booking would charge it (booking options asked with the party size).
    const lines: string[] = [];
    for (const [slug, group] of bySlug) {
      const show = input.shows.find((candidate) => candidate.slug === slug);
      const title = show?.title ?? group[0].showTitle ?? '';
      if (lines.length) lines.push('');
      lines.push(p.partyIntro(input.guests, title ? `**${title}**` : ''));
      for (const offer of group) {
        if (offer.party) lines.push(p.partyLine(offer.name, vnd(offer.party.totalVnd, input.lang), vnd(offer.totalPerGuestVnd ?? offer.pricePerGuestVnd ?? 0, input.lang)));
        else lines.push(p.partyNotTaken(offer.name, p.guestsRange(offer.minGuests, offer.maxGuests)));
        if (input.wantsIncludes && offer.items.length) lines.push(`  ${p.includes} ${offer.items.join(', ')}`);
      }
      const url = show ? showUrl(show, input) : undefined;
      if (url && show) lines.push(link(p.bookThis(show.title), url, input.markdown));
    }
    // Larger than any option takes: the way for a group.
    const maxGuests = Math.max(0, ...mine.map((offer) => offer.maxGuests ?? 0));
    if (maxGuests > 0 && input.guests > maxGuests && mine.every((offer) => !offer.party)) {
      lines.push('', p.tooManyGuests(input.guests, maxGuests));
      const inquiry = routeNamed(input.routes, 'inquiries', 'inquiry');
      if (inquiry) lines.push(p.inquiryHint(link(p.inquiryPage, inquiry, input.markdown)));
    }
    return lines.join('\n');
  }
  const lines: string[] = [];
  if (input.show) {
    lines.push(p.pricesIntro(`**${input.show.title}**`));
    for (const offer of mine) lines.push(offerLine(offer, input, p));
    const url = showUrl(input.show, input);
    if (url) lines.push(link(p.bookThis(input.show.title), url, input.markdown));
    return lines.join('\n');
  }
  lines.push(p.pricesAll);
  for (const [slug, group] of bySlug) {
    const show = input.shows.find((candidate) => candidate.slug === slug);
    const title = show?.title ?? group[0].showTitle;
    if (title) {
      const url = show ? showUrl(show, input) : undefined;
      lines.push(`**${title}**${url ? ` (${link(p.details, url, input.markdown)})` : ''}`);
    }
    for (const offer of group) lines.push(offerLine(offer, input, p));
  }
  return lines.join('\n');
}

function howToBookAnswer(input: AnswerInput, p: Phrases): string {
  const lines = [p.howToBook];
  const events = inDays(ofShow(input.events ?? [], input.show), input).filter(bookable);
  if (events.length) {
    lines.push(p.bookLinks);
    for (const event of events.slice(0, 3)) lines.push(eventLine(event, input, p, { title: !input.show, state: false }));
  }
  const url = input.show ? showUrl(input.show, input) : routeNamed(input.routes, 'shows');
  if (url) lines.push(link(input.show ? input.show.title : p.showsPage, url, input.markdown));
  return lines.join('\n');
}

function policyAnswer(input: AnswerInput, threshold: number): string | undefined {
  const ranked = rankKnowledge(input.knowledge ?? [], input.searchText);
  const best = ranked[0];
  if (!best || best.score < threshold) return undefined;
  const chosen = ranked.filter((entry, index) => index === 0 || (entry.score >= threshold && entry.score >= best.score * 0.9)).slice(0, 2);
  const allowed = new Set(input.routes.all);
  return chosen.map((entry) => quoteDocument(entry.document.title, clip(safeToQuote(entry.document.body, allowed), 600))).join('\n\n');
}

function privateAnswer(input: AnswerInput, p: Phrases, inquiry: string): string {
  const lines = [p.privateIntro];
  const doc = policyAnswer({ ...input, searchText: `${input.searchText} private` }, 4);
  if (doc) lines.push(doc);
  const offer = (input.offers ?? []).find((candidate) => candidate.bookingPath === 'PRIVATE_EVENT');
  if (offer && offer.pricePerGuestVnd !== undefined) {
    const price = `${vnd(offer.pricePerGuestVnd, input.lang)}${offer.totalPerGuestVnd !== undefined && offer.totalPerGuestVnd !== offer.pricePerGuestVnd ? ` (${p.withCharges(vnd(offer.totalPerGuestVnd, input.lang))})` : ''}`;
    lines.push(p.privateOffer(offer.name, price, p.guestsRange(offer.minGuests, offer.maxGuests)));
  }
  lines.push(p.inquiryHint(inquiry));
  return lines.join('\n');
}


/**
 * A show's age rule, said whenever the party's children cross it (or children are asked about and it is for adults
 * only), with the shows that take them instead.
 */
/** The input without the shows (and their performances and offers) that do not admit the party's youngest. */
function forTheParty(input: AnswerInput): { input: AnswerInput; excluded: ShowFact[] } {
  if (input.show || !input.party?.children) return { input, excluded: [] };
  const excluded = input.shows.filter((show) => ageBlocked(show, input.party));
  if (!excluded.length) return { input, excluded: [] };
  // No show takes the youngest ("we have a 3-year-old"): every show's age rule is said, nothing is left out of the answer.
  if (excluded.length === input.shows.length) return { input, excluded };
  const out = new Set(excluded.map((show) => show.slug));
  const keep = <T extends { showSlug?: string }>(list: T[] | undefined) => list?.filter((item) => !item.showSlug || !out.has(item.showSlug));
  return {
    input: { ...input, shows: input.shows.filter((show) => !out.has(show.slug)), events: keep(input.events), availability: keep(input.availability), offers: keep(input.offers) },
    excluded,
  };
}

/** Whether a show's age rule keeps out the party's youngest (unknown ages: only an adults-only show does). */
export function ageBlocked(show: ShowFact, party: Party | undefined): boolean {
  if (!party?.children || !show.minimumAge) return false;
  const youngest = party.childAges?.length ? Math.min(...party.childAges) : undefined;
  return youngest !== undefined ? youngest < show.minimumAge : show.minimumAge >= 18;
}

function ageNotes(input: AnswerInput, p: Phrases): string | undefined {
  const party = input.party;
  const shows = input.show ? [input.show] : [];
  if (!shows.length || !party?.children) return undefined;
  const youngest = party.childAges?.length ? Math.min(...party.childAges) : undefined;
  const lines: string[] = [];
  for (const show of shows) {
    const minimum = show.minimumAge;
    if (!minimum) continue;
    if (youngest !== undefined ? youngest < minimum : minimum >= 18) {
      lines.push(p.ageRule(`**${show.title}**`, minimum));
      const instead = input.shows.filter((other) => other.slug !== show.slug && (other.minimumAge ?? 0) <= (youngest ?? 0));
      // The shows that take them, each with its own age rule.
      if (instead.length) lines.push(p.ageInstead(instead.map((other) => (other.minimumAge ? `**${other.title}** (${p.ageFrom(other.minimumAge)})` : `**${other.title}**`)).join(', ')));
    } else if (youngest !== undefined) lines.push(p.ageFits(`**${show.title}**`, minimum));
  }
  return lines.length ? lines.join(' ') : undefined;
}

/** A document as quoted: its title, then its body (a list starts on its own line). */
function quoteDocument(title: string, body: string): string {
  return body.startsWith('- ') ? `**${title}**\n${body}` : `**${title}** — ${body}`;
}
