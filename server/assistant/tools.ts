import { tool } from 'ai';
import { z } from 'zod';
import { readKnowledge } from './facts.ts';
import { rankKnowledge } from './knowledge.ts';
import type { VenueData } from './venueData.ts';

/**
 * The agent's tools: each one call to an assistant-safe endpoint, in the turn's locale (bound here, so neither
 * model can fetch another locale's links). Every model — the offline one, Mistral, an OpenAI-compatible one —
 * calls the same tools; results go back to the model as the endpoints gave them.
 */
const localDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe('A venue-local date, YYYY-MM-DD.');
const showSlug = z.string().max(120).describe("A show's slug, as listShows gives it.");
const eventSlug = z.string().max(120).describe("A performance's eventSlug, as listShows (nextDates) or listEvents give it.");

/** Each tool's input, as the model must give it (and as a client's history is checked against). */
export const TOOL_INPUTS = {
  listShows: z.object({}),
  listEvents: z.object({ show: showSlug.optional(), from: localDate.optional(), to: localDate.optional() }),
  checkAvailability: z.object({ date: localDate, show: showSlug.optional(), guests: z.number().int().min(1).max(500).optional() }),
  getBookingOptions: z.object({ event: eventSlug, guests: z.number().int().min(1).max(500).optional() }),
  getSiteRoutes: z.object({}),
  searchKnowledge: z.object({ question: z.string().max(500).describe("The guest's question or its topic.") }),
};

export const TOOL_NAMES = ['listShows', 'listEvents', 'checkAvailability', 'getBookingOptions', 'getSiteRoutes', 'searchKnowledge'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/**
 * The turn's tools. Within one turn the same call with the same input is answered once (a model that asks
 * `getSiteRoutes` in every step, or repeats a lookup, costs one request); across turns the venue data's ETag
 * cache revalidates (./venueData.ts).
 */
export function createTools(source: VenueData, locale: string) {
  const data = memoized(source);
  return {
    listShows: tool({
      description: "The shows on the programme: slug, title, summary, duration, showUrl (the show's page), priceFromVnd (lowest total for one guest, service charge and VAT included) and the next performances (eventSlug, date, time, availability, bookingUrl).",
      inputSchema: TOOL_INPUTS.listShows,
      execute: () => data.shows(locale),
    }),
    listEvents: tool({
      description: 'Upcoming performances between two local dates (default: the next two weeks), optionally of one show: date, start time, doors, show, availability, seats left, bookingUrl.',
      inputSchema: TOOL_INPUTS.listEvents,
      execute: ({ show, from, to }) => data.events(locale, { show, from, to }),
    }),
    checkAvailability: tool({
      description: 'Whether the performances of one local date can take a party: availability, fit (FITS, NOT_ENOUGH_SEATS, PARTY_SIZE_NOT_OFFERED, SOLD_OUT, CLOSED), bookingUrl, and the inquiry page for groups.',
      inputSchema: TOOL_INPUTS.checkAvailability,
      execute: ({ date, show, guests }) => data.availability(locale, { date, show, guests }),
    }),
    getBookingOptions: tool({
      description: 'The ways to book one performance (offers): price per guest in VND (perGuest: before and with service charge and VAT), what each includes, the party sizes it takes, and the booking page; with guests, the price for the party.',
      inputSchema: TOOL_INPUTS.getBookingOptions,
      execute: ({ event, guests }) => data.bookingOptions(locale, { event, guests }),
    }),
    getSiteRoutes: tool({
      description: "The public website's links in this locale (home, shows, inquiries, waitlist, partners, each show's showUrl, each event's bookingUrl). Only these links may appear in answers.",
      inputSchema: TOOL_INPUTS.getSiteRoutes,
      execute: () => data.routes(locale),
    }),
    searchKnowledge: tool({
      description: "The venue's published policies and practical information (cancellation and refunds, dress code, children, dietary options, arrival, parking, accessibility, private events, contact), best matches first.",
      inputSchema: TOOL_INPUTS.searchKnowledge,
      execute: async ({ question }) => {
        const documents = readKnowledge(await data.knowledge(locale));
        const ranked = rankKnowledge(documents, question);
        return { documents: (ranked.length ? ranked.map((entry) => entry.document) : documents).slice(0, 4) };
      },
    }),
  };
}

export type AssistantTools = ReturnType<typeof createTools>;

/** `source` with each distinct call (method and arguments) made once; a failed call is not kept. */
function memoized(source: VenueData): VenueData {
  const answers = new Map<string, Promise<unknown>>();
  const once =
    <A extends unknown[]>(name: keyof VenueData, call: (...args: A) => Promise<unknown>) =>
    (...args: A): Promise<unknown> => {
      const key = `${name} ${JSON.stringify(args)}`;
      let answer = answers.get(key);
      if (!answer) {
        answer = call(...args);
        answers.set(key, answer);
        answer.catch(() => answers.delete(key));
      }
      return answer;
    };
  return {
    shows: once('shows', (locale: string) => source.shows(locale)),
    events: once('events', (locale: string, query?: Parameters<VenueData['events']>[1]) => source.events(locale, query)),
    availability: once('availability', (locale: string, query: Parameters<VenueData['availability']>[1]) => source.availability(locale, query)),
    bookingOptions: once('bookingOptions', (locale: string, query: Parameters<VenueData['bookingOptions']>[1]) => source.bookingOptions(locale, query)),
    routes: once('routes', (locale: string) => source.routes(locale)),
    knowledge: once('knowledge', (locale: string) => source.knowledge(locale)),
  };
}
