/**
 * Typed client for the venue backend, generated from openapi.yaml (`sdk/schema.d.ts`, never edited by hand:
 * `npm run sdk:generate`). Built on openapi-fetch: every call is typed by path and method, and results are
 * `{ data, error, response }` narrowed by status.
 */
import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths, webhooks } from './schema.d.ts';
import type { CookieJar } from 'tough-cookie';
import type { ProblemCode, ProblemFieldError } from './problems.ts';

export type { components, operations, paths, webhooks };
export { isProblem, type FieldErrorCode, type GenericProblemCode, type OperationProblemCode, type ProblemCode, type ProblemFieldError, type ProblemOf } from './problems.ts';
export {
  describeProblem,
  FALLBACK_MESSAGES,
  FIELD_ERROR_MESSAGES,
  FIELD_NAMES,
  fieldLabel,
  fieldOf,
  MESSAGE_LOCALES,
  messageFor,
  messageLocale,
  PROBLEM_MESSAGES,
  type DescribedProblem,
  type FieldDetail,
  type FieldProblem,
  type MessageLocale,
} from './messages.ts';
export type Schemas = components['schemas'];
export type Problem = Schemas['Problem'];
/**
 * A webhook body the venue sends to a registered endpoint (the contract's `webhooks`, issue 36 §3), by its `type`:
 * `WebhookEvent<'reservation.confirmed'>`. Verify it first (`new Webhook(secret).verify(rawBody, headers)` of the
 * `standardwebhooks` library), then narrow on `type`.
 */
export type WebhookEvent<T extends Schemas['WebhookEventType'] = Schemas['WebhookEventType']> = T extends unknown ? WebhookEventOf<T, Schemas['WebhookEvent']> : never;
type WebhookEventOf<T, E> = E extends { type: infer U } ? (T extends U ? Omit<E, 'type'> & { type: T } : never) : never;
export type VenueClient = Client<paths> & {
  /** Node only, when a jar was given as `cookies`: the RFC 6265 jar (tough-cookie) the client's requests go through. */
  cookies?: CookieJar;
};
export type { CookieJar };

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
   * Dashboard sessions. In a browser the cookie is the browser's: with `cookies: true` requests go with
   * `credentials: 'include'` (the API must list the page's origin in DASHBOARD_ORIGINS). In Node, pass
   * `cookies: true` (or a tough-cookie `CookieJar`) to keep the session cookie between calls, honouring its Path,
   * Expires/Max-Age and Secure. Without it (a guest site), a browser sends cookies only to its own origin.
   */
  cookies?: boolean | CookieJar;
  /**
   * Browsers: the fetch `credentials` mode, when neither default fits: `'include'` with `cookies: true` (the
   * dashboard, whose origin the API lists in DASHBOARD_ORIGINS), else the browser's own default (`'same-origin'`):
   * a guest site on another origin sends no cookie, which the API's CORS answers (no Allow-Credentials) require.
   */
  credentials?: RequestCredentials;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /**
   * The `Idempotency-Key` sent with a create that declares one (a hold, an inquiry, a payout run) when the call
   * gives none: a fresh random key per call by default. Pass your own per call
   * (`params: { header: { 'idempotency-key': key } }`) to make a retry of the same action answer the first result.
   */
  idempotencyKey?: () => string;
}

/** The creates whose operation declares an `Idempotency-Key` header (checked against the contract by the SDK's tests). */
export const IDEMPOTENT_CREATES: ReadonlyArray<{ method: 'POST'; path: keyof paths }> = [
  { method: 'POST', path: '/api/public/reservations' },
  { method: 'POST', path: '/api/inquiries' },
  { method: 'POST', path: '/api/referral-commissions/payouts' },
  { method: 'POST', path: '/api/public/gift-vouchers' },
];

const inBrowser = () => typeof window !== 'undefined' && typeof document !== 'undefined';

/**
 * `fetch` through a cookie jar (fetch-cookie over tough-cookie; a new jar when none is given), both loaded on first
 * use, so that a browser bundle, whose cookies are the browser's, never carries them.
 */
function fetchWithJar(given: CookieJar | undefined, base: typeof fetch | undefined): typeof fetch {
  let wrapped: Promise<typeof fetch> | undefined;
  const load = async () => {
    const [{ default: fetchCookie }, { CookieJar }] = await Promise.all([import('fetch-cookie'), import('tough-cookie')]);
    return fetchCookie(base ?? globalThis.fetch, given ?? new CookieJar()) as unknown as typeof fetch;
  };
  return async (input, init) => {
    wrapped ??= load();
    return (await wrapped)(input, init);
  };
}

export function createClient(options: ClientOptions): VenueClient {
  const jar = typeof options.cookies === 'object' ? options.cookies : undefined;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const client = createFetchClient<paths>({
    baseUrl,
    fetch: options.cookies ? fetchWithJar(jar, options.fetch) : options.fetch,
    headers: options.headers,
    credentials: options.credentials ?? (inBrowser() && options.cookies ? 'include' : undefined),
  }) as VenueClient;
  const idempotent = new Set(IDEMPOTENT_CREATES.map(({ method, path }) => `${method} ${new URL(baseUrl + path).pathname}`));
  const newKey = options.idempotencyKey ?? (() => globalThis.crypto.randomUUID());
  const auth: Middleware = {
    onRequest({ request }) {
      if (options.superuserToken) request.headers.set('x-api-token', options.superuserToken);
      if (options.apiKey) request.headers.set('x-api-key', options.apiKey);
      if (!request.headers.has('idempotency-key') && idempotent.has(`${request.method} ${new URL(request.url).pathname}`)) {
        request.headers.set('idempotency-key', newKey());
      }
      return request;
    },
  };
  client.use(auth);
  if (jar) client.cookies = jar;
  return client;
}

/**
 * A guest's own booking, with its reference and access token bound (the token from the hold's answer, or from the
 * manage-booking link's `#token=`): every call that needs `x-reservation-token` sends it.
 *
 *   const booking = guestReservation(client, { reference: hold.reference, token: hold.accessToken });
 *   const { data } = await booking.get();
 *   await booking.startCheckout({ method: 'VNPAY', locale: 'vi' });
 */
export function guestReservation(client: VenueClient, { reference, token }: { reference: string; token: string }) {
  const params = { path: { reference }, header: { 'x-reservation-token': token } };
  type Body<P extends keyof paths, M extends 'post'> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
  return {
    reference,
    /** The booking; `locale` words its texts (the pay-later instructions) in the page's language. */
    get: (query: { locale?: string } = {}) => client.GET('/api/public/reservations/{reference}', { params: { ...params, query } }),
    cancel: (body: Body<'/api/public/reservations/{reference}/cancel', 'post'> = {} as Body<'/api/public/reservations/{reference}/cancel', 'post'>) =>
      client.POST('/api/public/reservations/{reference}/cancel', { params, body }),
    checkoutOptions: () => client.GET('/api/public/reservations/{reference}/checkout', { params }),
    startCheckout: (body: Body<'/api/public/reservations/{reference}/checkout', 'post'>) => client.POST('/api/public/reservations/{reference}/checkout', { params, body }),
    /** The check-in QR (once confirmed) as an image: `png` (default) or `svg`. */
    ticket: (format: 'png' | 'svg' = 'png') =>
      client.GET('/api/public/reservations/{reference}/ticket', { params: { ...params, query: { format } }, parseAs: 'blob' }),
    /** A guest profile on this booking; answer carries the profile token for `guestProfile`. */
    createProfile: (body: Omit<Body<'/api/profiles', 'post'>, 'reference'>) =>
      client.POST('/api/profiles', { params: { header: params.header }, body: { ...body, reference } as Body<'/api/profiles', 'post'> }),
  };
}

/** A guest profile with its token bound (`x-profile-token`). */
export function guestProfile(client: VenueClient, { token }: { token: string }) {
  const params = { header: { 'x-profile-token': token } };
  type Body<P extends keyof paths, M extends 'post' | 'patch'> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
  return {
    get: () => client.GET('/api/profiles/me', { params }),
    update: (body: Body<'/api/profiles/me', 'patch'>) => client.PATCH('/api/profiles/me', { params, body }),
    react: (body: Body<'/api/profiles/me/reactions', 'post'>) => client.POST('/api/profiles/me/reactions', { params, body }),
  };
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
