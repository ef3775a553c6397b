/**
 * Reading the assistant-safe endpoints' answers (tool results) into the few facts the offline model and the
 * link audit use. Field names follow the endpoints' contract; reading stays tolerant (a missing field is a
 * fact not stated, never an error), as a tool result is only ever used to say less, not to guess more.
 */
type Json = Record<string, unknown>;

export interface ShowFact {
  slug: string;
  title: string;
  summary?: string;
  description?: string;
  durationMinutes?: number;
  showUrl?: string;
  priceFromVnd?: number;
  /** The youngest age admitted (the show's age rule), when it has one. */
  minimumAge?: number;
}

export interface EventFact {
  /** The event's slug: what its booking URL and booking options are keyed by. */
  key: string;
  showSlug?: string;
  showTitle?: string;
  /** Venue-local date (`YYYY-MM-DD`) and start time (`HH:mm`). */
  date: string;
  time: string;
  doorsTime?: string;
  /** AVAILABLE, LIMITED, SOLD_OUT, CLOSED (as the catalog states availability). */
  state?: string;
  seatsLeft?: number;
  /** For a party size: FITS, NOT_ENOUGH_SEATS, PARTY_SIZE_NOT_OFFERED, SOLD_OUT, CLOSED. */
  fit?: string;
  bookingUrl?: string;
}

/** Whether a performance takes no more bookings: sold out, or its booking closed. */
export function bookingStopped(event: Pick<EventFact, 'state'>): boolean {
  const state = event.state?.toUpperCase();
  return state === 'SOLD_OUT' || state === 'CLOSED';
}

export interface OfferFact {
  code?: string;
  showSlug?: string;
  showTitle?: string;
  name: string;
  description?: string;
  bookingPath?: string;
  experienceType?: string;
  minGuests?: number;
  maxGuests?: number;
  pricePerGuestVnd?: number;
  /** One guest's total with service charge and VAT. */
  totalPerGuestVnd?: number;
  /** The party's total with service charge and VAT, when booking options were asked for a party this offer takes. */
  party?: { guests: number; totalVnd: number };
  items: string[];
}

export interface KnowledgeFact {
  id?: string;
  /** The document's topic key (`dress-code`), shared by its translations. */
  topic?: string;
  title: string;
  body: string;
  tags: string[];
}

export interface RouteFacts {
  /** Named site routes (`home`, `shows`, `inquiries`, `waitlist`, `partners`, …) → absolute URL. */
  named: Record<string, string>;
  showUrls: Record<string, string>;
  bookingUrls: Record<string, string>;
  /** Every URL the route data holds: the links an answer may use. */
  all: string[];
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const first = <T>(...values: Array<T | undefined>): T | undefined => values.find((value) => value !== undefined);

/** The list in an answer: the answer itself, or its first array-valued field among `keys` (then any). */
export function listIn(data: unknown, keys: string[]): unknown[] {
  if (Array.isArray(data)) return data;
  if (!isObject(data)) return [];
  for (const key of keys) if (Array.isArray(data[key])) return data[key] as unknown[];
  const any = Object.values(data).find(Array.isArray);
  return (any as unknown[] | undefined) ?? [];
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return str(value);
  // A localized text object (`{ en, vi }`) or `{ text }`: its first string.
  if (isObject(value)) return str(value.text) ?? (Object.values(value).find((v) => typeof v === 'string') as string | undefined);
  return undefined;
}

export function readShows(data: unknown): ShowFact[] {
  return listIn(data, ['shows', 'items']).flatMap((raw) => {
    if (!isObject(raw)) return [];
    const slug = str(raw.slug) ?? str(raw.showSlug) ?? str(raw.id);
    const title = text(raw.title) ?? text(raw.name);
    if (!slug || !title) return [];
    const priceFrom = raw.priceFrom ?? raw.priceFromVnd ?? raw.fromPriceVnd;
    return [
      {
        slug,
        title,
        summary: text(raw.summary),
        description: text(raw.description),
        durationMinutes: num(raw.durationMinutes),
        showUrl: str(raw.showUrl) ?? str(raw.url),
        priceFromVnd: num(priceFrom) ?? (isObject(priceFrom) ? num(priceFrom.pricePerGuestVnd) ?? num(priceFrom.amountVnd) : undefined),
        minimumAge: num(raw.minimumAge),
      },
    ];
  });
}

/** Performances: a list of events, an availability answer (`date` + `events`), or shows with their `nextDates`. */
export function readEvents(data: unknown, zone?: string): EventFact[] {
  const top = isObject(data) ? data : {};
  const read = (raw: unknown, show: Json | undefined): EventFact[] => {
    if (!isObject(raw)) return [];
    const key = str(raw.eventSlug) ?? str(raw.slug) ?? str(raw.id);
    let date = str(raw.date) ?? str(top.date);
    let time = str(raw.time);
    const startsAt = str(raw.startsAt);
    if ((!date || !time) && startsAt) {
      const local = localParts(startsAt, zone);
      date ??= local.date;
      time ??= local.time;
    }
    if (!key || !date || !time) return [];
    const rawShow = isObject(raw.show) ? raw.show : show;
    return [
      {
        key,
        showSlug: str(raw.showSlug) ?? str(rawShow?.slug),
        showTitle: text(raw.showTitle) ?? text(rawShow?.title),
        date,
        time,
        doorsTime: str(raw.doorsTime),
        state: str(raw.availability) ?? str(raw.state),
        seatsLeft: num(raw.seatsLeft),
        fit: str(raw.fit),
        bookingUrl: str(raw.bookingUrl),
      },
    ];
  };
  const list = Array.isArray(top.events) ? top.events : listIn(data, ['items', 'events']);
  const events = list.flatMap((raw) => (isObject(raw) && Array.isArray(raw.nextDates) ? raw.nextDates.flatMap((next) => read(next, raw)) : read(raw, undefined)));
  return events.sort((a, b) => `${a.date}T${a.time}`.localeCompare(`${b.date}T${b.time}`));
}

function localParts(iso: string, zone: string | undefined): { date?: string; time?: string } {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return {};
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

export function readOffers(data: unknown): OfferFact[] {
  const top = isObject(data) ? data : {};
  const eventShow = isObject(top.event) && isObject(top.event.show) ? top.event.show : undefined;
  // Either a flat list of offers, or shows each with their offers.
  const groups = listIn(data, ['offers', 'shows', 'options', 'bookingOptions', 'items']);
  const out: OfferFact[] = [];
  const add = (raw: unknown, show: Json | undefined) => {
    if (!isObject(raw)) return;
    const name = text(raw.name) ?? text(raw.title);
    if (!name) return;
    const perGuest = isObject(raw.perGuest) ? raw.perGuest : isObject(raw.price) ? raw.price : undefined;
    const included = Array.isArray(raw.includes) ? raw.includes : raw.items;
    const items = Array.isArray(included) ? included.flatMap((item) => (isObject(item) ? [text(item.name)].filter((n): n is string => Boolean(n)) : typeof item === 'string' ? [item] : [])) : [];
    const rawShow = isObject(raw.show) ? raw.show : undefined;
    out.push({
      code: str(raw.code),
      showSlug: str(raw.showSlug) ?? str(rawShow?.slug) ?? str(show?.slug) ?? str(eventShow?.slug),
      showTitle: text(raw.showTitle) ?? text(rawShow?.title) ?? text(show?.title) ?? text(eventShow?.title),
      name,
      description: text(raw.description),
      bookingPath: str(raw.bookingPath),
      experienceType: str(raw.experienceType),
      minGuests: num(raw.minGuests),
      maxGuests: num(raw.maxGuests),
      pricePerGuestVnd: first(num(raw.pricePerGuestVnd), num(perGuest?.pricePerGuestVnd), num(raw.priceVnd)),
      totalPerGuestVnd: first(num(perGuest?.totalVnd), num(raw.totalPerGuestVnd)),
      party: isObject(raw.forParty) && num(raw.forParty.guests) !== undefined && num(raw.forParty.totalVnd) !== undefined ? { guests: num(raw.forParty.guests)!, totalVnd: num(raw.forParty.totalVnd)! } : undefined,
      items,
    });
  };
  for (const entry of groups) {
    if (isObject(entry) && Array.isArray(entry.offers)) for (const offer of entry.offers) add(offer, entry);
    else add(entry, undefined);
  }
  return out;
}

export function readKnowledge(data: unknown): KnowledgeFact[] {
  return listIn(data, ['documents', 'items', 'knowledge']).flatMap((raw) => {
    if (!isObject(raw)) return [];
    const title = text(raw.title);
    const body = text(raw.body) ?? text(raw.content) ?? text(raw.text) ?? text(raw.answer);
    if (!title || !body) return [];
    const tags = Array.isArray(raw.tags) ? raw.tags.filter((tag): tag is string => typeof tag === 'string') : [];
    return [{ id: str(raw.id) ?? str(raw.slug), topic: str(raw.topic), title, body, tags }];
  });
}

const isUrl = (value: string) => /^https?:\/\//i.test(value);

export function readRoutes(data: unknown): RouteFacts {
  const facts: RouteFacts = { named: {}, showUrls: {}, bookingUrls: {}, all: [] };
  const all = new Set<string>();
  const walk = (value: unknown, key: string | undefined, owner: Json | undefined) => {
    if (typeof value === 'string') {
      // Templates (`…/shows/{slug}`) are not links.
      if (!isUrl(value) || value.includes('{')) return;
      all.add(value);
      if (key === 'showUrl') {
        const slug = str(owner?.slug) ?? str(owner?.showSlug);
        if (slug) facts.showUrls[slug] = value;
      } else if (key === 'bookingUrl') {
        const event = str(owner?.slug) ?? str(owner?.eventSlug) ?? str(owner?.id) ?? str(owner?.eventId);
        if (event) facts.bookingUrls[event] = value;
      } else if (key && !(key in facts.named)) {
        facts.named[key] = value;
      }
      return;
    }
    if (Array.isArray(value)) for (const item of value) walk(item, undefined, undefined);
    else if (isObject(value)) {
      // A route given as `{ name, url }` is named by its name.
      if (typeof value.url === 'string' && typeof (value.name ?? value.key ?? value.route) === 'string') {
        const name = String(value.name ?? value.key ?? value.route);
        if (isUrl(value.url)) {
          all.add(value.url);
          if (!(name in facts.named)) facts.named[name] = value.url;
        }
      }
      for (const [k, v] of Object.entries(value)) if (k !== 'url' || typeof value.name !== 'string') walk(v, k, value);
    }
  };
  walk(data, undefined, undefined);
  facts.all = [...all];
  return facts;
}

/** A named route, by the first of `names` the route data has (`inquiries`, `inquiry`, …). */
export function routeNamed(routes: RouteFacts, ...names: string[]): string | undefined {
  for (const name of names) {
    const hit = Object.entries(routes.named).find(([key]) => key.toLowerCase() === name.toLowerCase());
    if (hit) return hit[1];
  }
  return undefined;
}
