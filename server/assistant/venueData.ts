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
  /** How many answers (by URL) are kept for revalidation with their ETag; 0 keeps none. */
  cacheEntries?: number;
}

/** Answers kept across turns by default: the catalog's reads in two locales, with room to spare. */
export const DEFAULT_CACHE_ENTRIES = 256;

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

/**
 * Across turns, every answer that came with an `ETag` is kept (by URL, the least recently used dropped past
 * `cacheEntries`) and asked again with `If-None-Match`: a `304` reuses the kept answer, so an unchanged catalog
 * costs the endpoint no body and the agent no parsing, while seats left and prices are still revalidated on every
 * call (issue 24 §7).
 */
export function createVenueData(options: VenueDataOptions): VenueData {
  const doFetch = options.fetch ?? fetch;
  const capacity = options.cacheEntries ?? DEFAULT_CACHE_ENTRIES;
  const kept = new Map<string, { etag: string; value: unknown }>();
  async function get(path: string, query: Query): Promise<unknown> {
    const url = new URL(path, `${options.baseUrl()}/`);
    for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
    const key = url.toString();
    const known = kept.get(key);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'venue-assistant' };
    if (known) headers['if-none-match'] = known.etag;
    let response: Response;
    try {
      response = await doFetch(url, { headers, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (err) {
      throw new VenueDataError(`${path}: ${(err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message}`);
    }
    if (response.status === 304 && known) {
      await response.body?.cancel();
      kept.delete(key);
      kept.set(key, known); // most recently used last
      return known.value;
    }
    const text = await response.text();
    if (!response.ok) throw new VenueDataError(`${path} answered ${response.status}: ${problemDetail(text)}`, response.status);
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      throw new VenueDataError(`${path} answered something other than JSON`, response.status);
    }
    const etag = response.headers.get('etag');
    kept.delete(key);
    if (etag && capacity > 0) {
      kept.set(key, { etag, value });
      if (kept.size > capacity) kept.delete(kept.keys().next().value!);
    }
    return value;
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
