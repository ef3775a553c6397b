import type Koa from 'koa';
import { ANONYMOUS } from '../auth/context.ts';
import type { Operation } from './contract.ts';
import { Problem } from './problem.ts';
import type { AppState } from './state.ts';

/**
 * Cross-site request forgery (issue 32 §1). A browser attaches the session cookie to requests that a page on another
 * site (or a sibling subdomain, or another localhost port: SameSite=Lax calls those "same site") starts on its own: a
 * plain `<form>` POST, `fetch(…, { mode: 'no-cors', credentials: 'include' })`, `navigator.sendBeacon`. Such
 * requests cannot carry a custom header, nor a body type outside the three a form can send, unless the API first
 * answers a CORS preflight for them — which it does only for the listed dashboard origins. So a write the session
 * cookie authenticates is accepted only when
 *
 * 1. it comes from the API's own origin or one of `DASHBOARD_ORIGINS`: `Origin` says so, or, with no `Origin` (older
 *    browsers on same-origin requests), `Sec-Fetch-Site` is `same-origin` or `none` (typed in the address bar). A
 *    request with neither header is no browser's (curl, a server); the body rule below still holds for it; and
 * 2. its body type is one a page elsewhere could not send without a preflight: `application/json` (or any type the
 *    operation declares that is not a form's), or `multipart/form-data` where the contract declares it. Form-encoded
 *    and `text/plain` bodies, and a body without a type, are refused, empty ones included.
 *
 * Otherwise: 403 `cross_site_request` (origin) or 415 `unsupported_media_type` (body type). Operations that need no
 * identity (`public`) are not refused: the cookie is set aside and the request goes on as an anonymous one, as it
 * would from that page without the cookie (a guest booking on the storefront while signed in to the dashboard in
 * another tab, a visit beacon). Credentials a browser never sends on its own (`x-api-key`, a superuser token, service,
 * webhook and guest tokens) are not concerned: identity resolution sets `authSource` to `session` only for the cookie.
 */
export interface CrossSiteOptions {
  /** `DASHBOARD_ORIGINS` and the API's own public origin (`PUBLIC_API_URL`); the request's own origin is added per request. */
  trustedOrigins: readonly string[];
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The body types a `<form>` (and a no-cors fetch) can send without a preflight, besides none at all. */
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

export const CrossSiteRequest = (detail: string) => new Problem(403, 'cross_site_request', 'Forbidden', { detail });

export function crossSiteGuard(op: Operation, options: CrossSiteOptions): Koa.Middleware<AppState> | undefined {
  if (!UNSAFE.has(op.method.toUpperCase())) return undefined;
  // Token levels (a chat platform, a scraper, the assistant service) and disabled operations take no cookie identity.
  const human = op.access === 'session' || op.access === 'staff' || op.access === 'admin' || op.access === 'superuser';
  if (!human && op.access !== 'public') return undefined;
  const trusted = new Set(options.trustedOrigins);
  const multipart = Boolean(op.requestBody?.media['multipart/form-data']);

  return (ctx, next) => {
    if (ctx.state.auth.authSource !== 'session') return next();
    const refusal = originRefusal(ctx, trusted) ?? bodyTypeRefusal(ctx, multipart);
    if (!refusal) return next();
    if (!human) {
      // A public operation needs no identity: the cookie is not used, the request goes on as a guest's.
      ctx.state.auth = ANONYMOUS;
      return next();
    }
    ctx.state.log.warn({ origin: ctx.get('origin') || undefined, secFetchSite: ctx.get('sec-fetch-site') || undefined, contentType: ctx.get('content-type') || undefined }, 'cross-site write refused');
    throw refusal;
  };
}

function originRefusal(ctx: Koa.ParameterizedContext<AppState>, trusted: Set<string>): Problem | undefined {
  const origin = ctx.get('origin');
  if (origin) {
    // The API's own origin as this request reached it. Not `ctx.origin`: since Koa 3 that is the Origin header itself.
    if (trusted.has(origin) || origin === `${ctx.protocol}://${ctx.host}`) return undefined;
    return CrossSiteRequest(`A write signed in with the session cookie must come from the API's own origin or a dashboard origin (DASHBOARD_ORIGINS); ${origin === 'null' ? 'this request has an opaque origin' : `${origin} is neither`}.`);
  }
  const site = ctx.get('sec-fetch-site');
  if (!site || site === 'same-origin' || site === 'none') return undefined;
  return CrossSiteRequest(`A write signed in with the session cookie must come from the API's own origin or a dashboard origin; this one is ${site} (Sec-Fetch-Site) and names no Origin.`);
}

function bodyTypeRefusal(ctx: Koa.ParameterizedContext<AppState>, multipartDeclared: boolean): Problem | undefined {
  const header = ctx.get('content-type');
  if (!header) {
    const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
    return hasBody ? cookieBodyType('a body without a Content-Type') : undefined;
  }
  const type = header.split(';', 1)[0].trim().toLowerCase();
  if (!FORM_TYPES.has(type)) return undefined;
  if (type === 'multipart/form-data' && multipartDeclared) return undefined;
  return cookieBodyType(type);
}

const cookieBodyType = (what: string) =>
  new Problem(415, 'unsupported_media_type', 'Unsupported media type', {
    detail: `A write signed in with the session cookie must send its body as application/json (or multipart/form-data where the operation takes it), not ${what}.`,
  });
