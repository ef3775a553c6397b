import type { Schema } from '../../platform/http/handler.ts';
import { availabilityOf } from '../../domain/availability.ts';
import { pickLocale } from '../../domain/localized.ts';
import { quote } from '../../domain/pricing.ts';
import type { EventRow, OfferRow, Sales, ShowRow } from './queries.ts';

/**
 * The public catalog's allow-lists, apart from the staff presenters on purpose: a guest sees text in one
 * locale, the public keys (slugs, offer codes), times, an availability state and prices computed from the
 * commercial setup. Never a row id, capacity, staff notes, cancellation details, sales windows or sort orders.
 */
export interface Presentation {
  locale: string;
  defaultLocale: string;
  zone: string;
  now: Date;
}

/** The public asset route's URL of a storage key (relative to this API's origin), as storage serves it. */
export const assetUrl = (key: string) => `/api/public/assets?key=${encodeURIComponent(key)}`;

/** `YYYY-MM-DD HH:mm` (local, from the query) → the local date and time. */
const localEvent = (localStart: string) => ({ date: localStart.slice(0, 10), time: localStart.slice(11, 16) });

export function presentOffer(offer: OfferRow, sales: Sales, p: Presentation): Schema<'PublicOffer'> {
  return {
    code: offer.code,
    name: pickLocale(offer.name, p.locale, p.defaultLocale),
    description: pickLocale(offer.description, p.locale, p.defaultLocale),
    bookingPath: offer.bookingPath,
    experienceType: offer.experienceType,
    minGuests: offer.minGuests,
    maxGuests: offer.maxGuests,
    perGuest: quote(offer.pricePerGuestVnd, 1, sales.pricing),
    minGuestsQuote: quote(offer.pricePerGuestVnd, offer.minGuests, sales.pricing),
    items: offer.items.map((item) => ({
      name: pickLocale(item.name, p.locale, p.defaultLocale),
      kind: item.kind,
      quantityPerGuest: item.quantityPerGuest,
      dietaryTags: item.dietaryTags,
    })),
  };
}

/** The offers on sale for a show: its own and the all-shows ones (already in sort order). */
export const offersFor = (sales: Sales, showId: string) => sales.offers.filter((offer) => offer.showId === null || offer.showId === showId);

/** A guest's price-from of a show: the lowest total for one guest over its offers on sale, or null. */
function priceFrom(sales: Sales, showId: string) {
  const quotes = offersFor(sales, showId).map((offer) => quote(offer.pricePerGuestVnd, 1, sales.pricing));
  return quotes.length ? quotes.reduce((low, next) => (next.totalVnd < low.totalVnd ? next : low)) : null;
}

/** The event's availability (state, seats left) from its row and the sales settings, at `p.now`. */
export function eventAvailability(event: EventRow, sales: Sales, p: Pick<Presentation, 'now'>) {
  return availabilityOf({
    capacity: event.capacity,
    seatsTaken: event.seats_taken,
    salesOpen: event.sales_open,
    status: event.status,
    startsAt: event.starts_at,
    bookingCutoffMinutes: sales.bookingCutoffMinutes,
    limitedAvailabilityThreshold: sales.limitedAvailabilityThreshold,
    now: p.now,
  });
}

/** An event as a list row of its show's page: when, and whether it can be booked. */
export function presentEventSummary(event: EventRow, sales: Sales, p: Presentation): Schema<'PublicEventSummary'> {
  const availability = eventAvailability(event, sales, p);
  return {
    slug: event.slug,
    ...localEvent(event.local_start),
    startsAt: event.starts_at.toISOString(),
    doorsAt: event.doors_at ? event.doors_at.toISOString() : null,
    bookingClosesAt: availability.bookingClosesAt.toISOString(),
    state: availability.state,
    seatsLeft: availability.seatsLeft,
  };
}

/** Whether an event still sells: scheduled and not started (a cancelled, completed or past one has nothing to buy). */
const selling = (event: EventRow, p: Presentation) => event.status === 'SCHEDULED' && event.starts_at.getTime() > p.now.getTime();

function presentEventCore(event: EventRow, sales: Sales, p: Presentation) {
  return {
    ...presentEventSummary(event, sales, p),
    cancelled: event.status === 'CANCELLED',
    show: {
      slug: event.show_slug,
      title: pickLocale(event.show_title, p.locale, p.defaultLocale),
      durationMinutes: event.duration_minutes,
      minimumAge: event.minimum_age,
    },
  };
}

/**
 * One event with its show and the offers a guest can choose, priced. A cancelled or completed event, or one
 * already started, lists no offers; `cancelled` says why an old link is closed.
 */
export function presentEvent(event: EventRow, sales: Sales, p: Presentation): Schema<'PublicShowEvent'> {
  return {
    ...presentEventCore(event, sales, p),
    offers: selling(event, p) ? offersFor(sales, event.show_id).map((offer) => presentOffer(offer, sales, p)) : [],
  };
}

/**
 * A page of events: each names its offers by code, and the page carries each of those offers once, priced.
 * Every event of a show sells the same offers (sales windows are read at `now`), so eight weeks of events
 * would otherwise repeat the same few offers and their items a hundred times over.
 */
export function presentEventPage(events: EventRow[], sales: Sales, p: Presentation): Pick<Schema<'PublicShowEventPage'>, 'items' | 'offers'> {
  const used = new Set<string>();
  const items = events.map((event) => {
    const offerCodes = selling(event, p) ? offersFor(sales, event.show_id).map((offer) => offer.code) : [];
    for (const code of offerCodes) used.add(code);
    return { ...presentEventCore(event, sales, p), offerCodes };
  });
  const offers = sales.offers.filter((offer) => used.has(offer.code)).map((offer) => presentOffer(offer, sales, p));
  return { items, offers };
}

export function presentShow(show: ShowRow, sales: Sales, p: Presentation): Schema<'PublicShow'> {
  return {
    slug: show.slug,
    code: show.code,
    title: pickLocale(show.title, p.locale, p.defaultLocale),
    summary: pickLocale(show.summary, p.locale, p.defaultLocale),
    description: pickLocale(show.description, p.locale, p.defaultLocale),
    durationMinutes: show.duration_minutes,
    minimumAge: show.minimum_age,
    imageUrls: show.image_keys.map(assetUrl),
    nextEvent:
      show.next_slug && show.next_starts_at && show.next_local_start
        ? { slug: show.next_slug, ...localEvent(show.next_local_start), startsAt: show.next_starts_at.toISOString() }
        : null,
    priceFrom: priceFrom(sales, show.id),
  };
}

/** A show's page: the show, its offers on sale, and its upcoming events (availability only; offers once, above). */
export function presentShowDetail(show: ShowRow, events: EventRow[], sales: Sales, p: Presentation): Schema<'PublicShowDetail'> {
  return {
    ...presentShow(show, sales, p),
    offers: offersFor(sales, show.id).map((offer) => presentOffer(offer, sales, p)),
    events: events.map((event) => presentEventSummary(event, sales, p)),
  };
}
