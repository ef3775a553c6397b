import type { Schema } from '../../platform/http/handler.ts';
import { pickLocale } from '../../domain/localized.ts';
import { quote, type PriceQuote } from '../../domain/pricing.ts';
import { toLocal } from '../../domain/venueTime.ts';
import { eventAvailability, offersFor, type Presentation } from '../catalog/index.ts';
import type { EventRow, OfferRow, Sales, ShowRow } from '../catalog/index.ts';
import type { SiteRoutes } from './routes.ts';

/**
 * The assistant-safe allow-lists: compact, one locale, public keys (slugs, offer codes), local dates and times,
 * an availability state, prices from the commercial setup and public-site URLs. Never a row id, a capacity or a
 * count of seats taken, a status, staff notes, cancellation details, sales windows or timestamps of records.
 */

export const NEXT_DATES = 5;

/** `YYYY-MM-DD HH:mm` (local, from the query) → the local date and time. */
const localEvent = (localStart: string) => ({ date: localStart.slice(0, 10), time: localStart.slice(11, 16) });

/** Whether the event is still selling (scheduled, not started): only then has it offers. */
const selling = (event: EventRow, p: Presentation) => event.status === 'SCHEDULED' && event.starts_at.getTime() > p.now.getTime();

/** The event's offers on sale now (none once it is cancelled, completed or started). */
export const eventOffers = (event: EventRow, sales: Sales, p: Presentation): OfferRow[] => (selling(event, p) ? offersFor(sales, event.show_id) : []);

/** The availability state, the exact seats left (internal: never presented below the threshold) and bookability. */
export function eventState(event: EventRow, sales: Sales, p: Presentation) {
  const availability = eventAvailability(event, sales, p);
  const offers = eventOffers(event, sales, p);
  const open = availability.state === 'AVAILABLE' || availability.state === 'LIMITED';
  return { state: availability.state, seatsLeft: availability.seatsLeft, remaining: Math.max(0, event.capacity - event.seats_taken), offers, bookable: open && offers.length > 0 };
}

const showRef = (event: EventRow, p: Presentation, routes: SiteRoutes) => ({
  slug: event.show_slug,
  title: pickLocale(event.show_title, p.locale, p.defaultLocale),
  showUrl: routes.show(event.show_slug),
});

const price = (q: PriceQuote) => ({
  guests: q.guests,
  pricePerGuestVnd: q.pricePerGuestVnd,
  subtotalVnd: q.subtotalVnd,
  serviceChargeVnd: q.serviceChargeVnd,
  vatVnd: q.vatVnd,
  totalVnd: q.totalVnd,
});

/** The lowest total for one guest over the show's offers on sale, or null. */
function priceFromVnd(sales: Sales, showId: string): number | null {
  const totals = offersFor(sales, showId).map((offer) => quote(offer.pricePerGuestVnd, 1, sales.pricing).totalVnd);
  return totals.length ? Math.min(...totals) : null;
}

export function presentAssistantShow(show: ShowRow, events: EventRow[], sales: Sales, p: Presentation, routes: SiteRoutes): Schema<'AssistantShow'> {
  return {
    slug: show.slug,
    code: show.code,
    title: pickLocale(show.title, p.locale, p.defaultLocale),
    summary: pickLocale(show.summary, p.locale, p.defaultLocale),
    description: pickLocale(show.description, p.locale, p.defaultLocale),
    durationMinutes: show.duration_minutes,
    minimumAge: show.minimum_age,
    showUrl: routes.show(show.slug),
    priceFromVnd: priceFromVnd(sales, show.id),
    nextDates: events.slice(0, NEXT_DATES).map((event) => {
      const state = eventState(event, sales, p);
      return {
        eventSlug: event.slug,
        ...localEvent(event.local_start),
        availability: state.state,
        bookingUrl: state.bookable ? routes.booking(event.slug) : null,
      };
    }),
  };
}

export function presentAssistantEvent(event: EventRow, sales: Sales, p: Presentation, routes: SiteRoutes): Schema<'AssistantEvent'> {
  const state = eventState(event, sales, p);
  return {
    eventSlug: event.slug,
    ...localEvent(event.local_start),
    doorsTime: event.doors_at ? toLocal(event.doors_at, p.zone).time : null,
    show: showRef(event, p, routes),
    availability: state.state,
    seatsLeft: state.seatsLeft,
    bookingUrl: state.bookable ? routes.booking(event.slug) : null,
  };
}

export type PartyFit = 'FITS' | 'NOT_ENOUGH_SEATS' | 'PARTY_SIZE_NOT_OFFERED' | 'SOLD_OUT' | 'CLOSED';

/** Whether the event can take `guests` now, and with which offers. */
export function partyFit(event: EventRow, sales: Sales, p: Presentation, guests: number): { fit: PartyFit; offerCodes: string[] } {
  const state = eventState(event, sales, p);
  const fitting = state.offers.filter((offer) => offer.minGuests <= guests && guests <= offer.maxGuests).map((offer) => offer.code);
  if (state.state === 'CLOSED' || state.offers.length === 0) return { fit: 'CLOSED', offerCodes: [] };
  if (state.state === 'SOLD_OUT') return { fit: 'SOLD_OUT', offerCodes: [] };
  if (fitting.length === 0) return { fit: 'PARTY_SIZE_NOT_OFFERED', offerCodes: [] };
  if (state.remaining < guests) return { fit: 'NOT_ENOUGH_SEATS', offerCodes: fitting };
  return { fit: 'FITS', offerCodes: fitting };
}

export function presentAvailabilityEvent(event: EventRow, sales: Sales, p: Presentation, routes: SiteRoutes, guests: number): Schema<'AssistantAvailabilityEvent'> {
  const { fit, offerCodes } = partyFit(event, sales, p, guests);
  return {
    eventSlug: event.slug,
    time: localEvent(event.local_start).time,
    show: showRef(event, p, routes),
    availability: eventState(event, sales, p).state,
    fit,
    offerCodes,
    bookingUrl: fit === 'FITS' ? routes.booking(event.slug) : null,
  };
}

export function presentBookingOptions(event: EventRow, sales: Sales, p: Presentation, routes: SiteRoutes, guests: number | undefined): Schema<'AssistantBookingOptions'> {
  const state = eventState(event, sales, p);
  const offers = state.offers;
  return {
    locale: p.locale,
    currency: 'VND' as const,
    event: {
      eventSlug: event.slug,
      ...localEvent(event.local_start),
      show: showRef(event, p, routes),
      availability: state.state,
      seatsLeft: state.seatsLeft,
    },
    bookable: state.bookable,
    guestLimits: offers.length ? { min: Math.min(...offers.map((o) => o.minGuests)), max: Math.max(...offers.map((o) => o.maxGuests)) } : null,
    offers: offers.map((offer) => ({
      code: offer.code,
      name: pickLocale(offer.name, p.locale, p.defaultLocale),
      description: pickLocale(offer.description, p.locale, p.defaultLocale),
      bookingPath: offer.bookingPath,
      minGuests: offer.minGuests,
      maxGuests: offer.maxGuests,
      perGuest: price(quote(offer.pricePerGuestVnd, 1, sales.pricing)),
      forParty: guests !== undefined && offer.minGuests <= guests && guests <= offer.maxGuests ? price(quote(offer.pricePerGuestVnd, guests, sales.pricing)) : null,
      includes: offer.items.map((item) => ({
        name: pickLocale(item.name, p.locale, p.defaultLocale),
        kind: item.kind,
        quantityPerGuest: item.quantityPerGuest,
        dietaryTags: item.dietaryTags,
      })),
    })),
    bookingUrl: state.bookable ? routes.booking(event.slug) : null,
  };
}

export function presentRoutes(shows: ShowRow[], events: EventRow[], sales: Sales, p: Presentation, routes: SiteRoutes, locales: string[]): Schema<'AssistantRoutes'> {
  return {
    locale: p.locale,
    baseUrl: routes.baseUrl,
    locales,
    pages: routes.pages,
    patterns: routes.patterns,
    shows: shows.map((show) => ({ slug: show.slug, title: pickLocale(show.title, p.locale, p.defaultLocale), showUrl: routes.show(show.slug) })),
    events: events
      .filter((event) => eventState(event, sales, p).bookable)
      .map((event) => ({ eventSlug: event.slug, showSlug: event.show_slug, ...localEvent(event.local_start), bookingUrl: routes.booking(event.slug) })),
  };
}
