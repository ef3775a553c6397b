/**
 * The assistant's only source of venue facts: the assistant-safe endpoints of this service
 * (`/api/ai/customer-support/catalog/*`, `/api/ai/customer-support/knowledge`), called over HTTP like any other
 * client, so every fact enters through the route boundary (access, policy, validation, presenters) and never
 * from the database (spec §4.7 rule 4). Answers are passed on as they are: the endpoints are already compact
 * and assistant-safe.
 */
export interface VenueDataOptions {
  /** The service's base URL (resolved per call: the server may learn its own address after boot). */
  baseUrl: () => string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export class VenueDataError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'VenueDataError';
  }
}

export type Query = Record<string, string | number | undefined>;

export interface VenueData {
  shows(locale: string): Promise<unknown>;
  events(locale: string, query?: { show?: string; from?: string; to?: string }): Promise<unknown>;
  availability(locale: string, query: { date: string; show?: string; guests?: number }): Promise<unknown>;
  bookingOptions(locale: string, query: { event: string; guests?: number }): Promise<unknown>;
  routes(locale: string): Promise<unknown>;
  knowledge(locale: string): Promise<unknown>;
}

export const VENUE_DATA_PATHS = {
  shows: '/api/ai/customer-support/catalog/shows',
  events: '/api/ai/customer-support/catalog/events',
  availability: '/api/ai/customer-support/catalog/availability',
  bookingOptions: '/api/ai/customer-support/catalog/booking-options',
  routes: '/api/ai/customer-support/catalog/routes',
  knowledge: '/api/ai/customer-support/knowledge',
} as const;

export function createVenueData(options: VenueDataOptions): VenueData {
  const doFetch = options.fetch ?? fetch;
  async function get(path: string, query: Query): Promise<unknown> {
    const url = new URL(path, `${options.baseUrl()}/`);
    for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
    let response: Response;
    try {
      response = await doFetch(url, { headers: { accept: 'application/json', 'user-agent': 'venue-assistant' }, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (err) {
      throw new VenueDataError(`${path}: ${(err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message}`);
    }
    const text = await response.text();
    if (!response.ok) throw new VenueDataError(`${path} answered ${response.status}: ${problemDetail(text)}`, response.status);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new VenueDataError(`${path} answered something other than JSON`, response.status);
    }
  }
  return {
    shows: (locale) => get(VENUE_DATA_PATHS.shows, { locale }),
    events: (locale, query = {}) => get(VENUE_DATA_PATHS.events, { locale, ...query }),
    availability: (locale, query) => get(VENUE_DATA_PATHS.availability, { locale, ...query }),
    bookingOptions: (locale, query) => get(VENUE_DATA_PATHS.bookingOptions, { locale, ...query }),
    routes: (locale) => get(VENUE_DATA_PATHS.routes, { locale }),
    knowledge: (locale) => get(VENUE_DATA_PATHS.knowledge, { locale, limit: 100 }),
  };
}

function problemDetail(text: string): string {
  try {
    const problem = JSON.parse(text) as { detail?: string; title?: string };
    return problem.detail ?? problem.title ?? 'error';
  } catch {
    return 'error';
  }
}
