/**
 * Typed client for the venue backend, generated from openapi.yaml (`sdk/schema.d.ts`, never edited by hand:
 * `npm run sdk:generate`). Built on openapi-fetch: every call is typed by path and method, and results are
 * `{ data, error, response }` narrowed by status.
 */
import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema.d.ts';
import type { ProblemCode, ProblemFieldError } from './problems.ts';

export type { components, operations, paths };
export { isProblem, type FieldErrorCode, type GenericProblemCode, type OperationProblemCode, type ProblemCode, type ProblemFieldError, type ProblemOf } from './problems.ts';
export type Schemas = components['schemas'];
export type Problem = Schemas['Problem'];
export type VenueClient = Client<paths> & { cookies?: CookieJar };

export interface ClientOptions {
  /** e.g. `http://localhost:3000` */
  baseUrl: string;
  /** Sent as `x-api-token` (superusers, scripts, the terminal app). */
  superuserToken?: string;
  /** Sent as `x-api-key` (machine credentials with a permission map). */
  apiKey?: string;
  /** A fetch implementation (tests, instrumentation); the global fetch by default. */
  fetch?: typeof fetch;
  /**
   * Dashboard sessions. In a browser the cookie is the browser's: requests go with `credentials: 'include'`.
   * In Node, pass `cookies: true` (or a CookieJar) to keep the session cookie between calls.
   */
  cookies?: boolean | CookieJar;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

/** A minimal cookie jar for Node: remembers cookies the server sets (by name) and sends them back. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Reads the response's `Set-Cookie` headers; `Max-Age=0` or an empty value removes a cookie. */
  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';');
      const eq = pair.indexOf('=');
      if (eq < 1) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): string | undefined {
    return this.cookies.size ? [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') : undefined;
  }

  clear(): void {
    this.cookies.clear();
  }
}

export function createClient(options: ClientOptions): VenueClient {
  const jar = options.cookies === true ? new CookieJar() : options.cookies || undefined;
  const inBrowser = typeof window !== 'undefined' && typeof document !== 'undefined';
  const client = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: options.fetch,
    headers: options.headers,
    credentials: inBrowser ? 'include' : undefined,
  }) as VenueClient;
  const auth: Middleware = {
    onRequest({ request }) {
      if (options.superuserToken) request.headers.set('x-api-token', options.superuserToken);
      if (options.apiKey) request.headers.set('x-api-key', options.apiKey);
      const cookie = jar?.header();
      if (cookie && !request.headers.has('cookie')) request.headers.set('cookie', cookie);
      return request;
    },
    onResponse({ response }) {
      jar?.store(response);
      return response;
    },
  };
  client.use(auth);
  if (jar) client.cookies = jar;
  return client;
}

/** A problem+json answer as an exception, for callers who prefer throwing to `{ data, error }`. */
export class ApiError extends Error {
  readonly status: number;
  /** The problem's code; `http_<status>` when the answer was not a problem document. */
  readonly code: ProblemCode | `http_${number}`;
  readonly title: string;
  readonly detail?: string;
  readonly errors: ProblemFieldError[];
  readonly requestId?: string;
  readonly problem?: Problem;

  constructor(status: number, problem: Partial<Problem> | undefined, fallback: string) {
    const title = problem?.title ?? fallback;
    super(problem?.detail ? `${title}: ${problem.detail}` : title);
    this.name = 'ApiError';
    this.status = status;
    this.code = problem?.code ?? `http_${status}`;
    this.title = title;
    this.detail = problem?.detail;
    this.errors = problem?.errors ?? [];
    this.requestId = problem?.requestId;
    this.problem = problem as Problem | undefined;
  }
}

/**
 * `{ data, error, response }` → data, or throws ApiError carrying status, code, title, detail and field errors.
 *
 *   const me = unwrap(await client.GET('/api/auth/me'));
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok) return result.data as T;
  const problem = typeof result.error === 'object' && result.error !== null ? (result.error as Partial<Problem>) : undefined;
  throw new ApiError(result.response.status, problem, result.response.statusText || `HTTP ${result.response.status}`);
}
