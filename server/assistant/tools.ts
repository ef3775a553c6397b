import { tool } from 'ai';
import { z } from 'zod';
import { readKnowledge } from './facts.ts';
import { rankKnowledge } from './knowledge.ts';
import type { VenueData } from './venueData.ts';

/**
 * The agent's tools: each one call to an assistant-safe endpoint, in the turn's locale (bound here, so neither
 * model can fetch another locale's links). Both models — the offline one and Mistral — call the same tools;
 * results go back to the model as the endpoints gave them.
 */
const localDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe('A venue-local date, YYYY-MM-DD.');
const showSlug = z.string().max(120).describe("A show's slug, as listShows gives it.");

export const TOOL_NAMES = ['listShows', 'listEvents', 'checkAvailability', 'getBookingOptions', 'getSiteRoutes', 'searchKnowledge'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export function createTools(data: VenueData, locale: string) {
  return {
    listShows: tool({
      description: 'The shows on the programme: slug, title, summary, description, duration, showUrl (the link to the show page), price from.',
      inputSchema: z.object({}),
      execute: () => data.shows(locale),
    }),
    listEvents: tool({
      description: 'Upcoming performances (date, start time, doors, availability state, seats left, bookingUrl), optionally of one show and between two dates.',
      inputSchema: z.object({ show: showSlug.optional(), from: localDate.optional(), to: localDate.optional() }),
      execute: ({ show, from, to }) => data.events(locale, { show, from, to }),
    }),
    checkAvailability: tool({
      description: 'Whether performances on a date (or from/to) still have seats, optionally for one show and a party size.',
      inputSchema: z.object({
        date: localDate.optional(),
        from: localDate.optional(),
        to: localDate.optional(),
        show: showSlug.optional(),
        guests: z.number().int().min(1).max(500).optional(),
      }),
      execute: ({ date, from, to, show, guests }) => data.availability(locale, { date, from, to, show, guests }),
    }),
    getBookingOptions: tool({
      description: 'The ways to book (offers) with their price per guest in VND, what each includes, and the party sizes they take; optionally of one show.',
      inputSchema: z.object({ show: showSlug.optional() }),
      execute: ({ show }) => data.bookingOptions(locale, { show }),
    }),
    getSiteRoutes: tool({
      description: "The public website's links in this locale (home, shows, inquiries, waitlist, partners, each show's showUrl, each event's bookingUrl). Only these links may appear in answers.",
      inputSchema: z.object({}),
      execute: () => data.routes(locale),
    }),
    searchKnowledge: tool({
      description: "The venue's published policies and practical information (cancellation and refunds, dress code, children, dietary options, arrival, parking, accessibility, private events, contact), best matches first.",
      inputSchema: z.object({ question: z.string().max(500).describe("The guest's question or its topic.") }),
      execute: async ({ question }) => {
        const documents = readKnowledge(await data.knowledge(locale));
        const ranked = rankKnowledge(documents, question);
        return { documents: (ranked.length ? ranked.map((entry) => entry.document) : documents).slice(0, 4) };
      },
    }),
  };
}

export type AssistantTools = ReturnType<typeof createTools>;
