import cors from '@koa/cors';
import type Koa from 'koa';
import type { Contract } from './contract.ts';
import type { AppState } from './state.ts';

/** Access levels a browser never holds: their callers are servers (the assistant's tools, chat platforms, Meta). */
const SERVER_ACCESS = new Set(['service-token', 'chat-webhook-token', 'messaging-verify-token', 'disabled']);
/** Request headers every browser call may send besides the ones the operations declare. */
const BASE_REQUEST_HEADERS = ['Content-Type', 'Authorization', 'If-None-Match', 'x-request-id'];
/** Response headers the platform sets on answers whatever the operation declares (the request id, 405's `Allow`). */
const BASE_EXPOSED_HEADERS = ['x-request-id', 'Allow'];
/** Never exposable (the Fetch standard hides it from scripts whatever we say). */
const NOT_EXPOSABLE = new Set(['set-cookie', 'set-cookie2']);

export interface CorsHeaders {
  /** `Access-Control-Allow-Headers`: what a browser may send. */
  allow: string[];
  /** `Access-Control-Expose-Headers`: what browser code may read. */
  expose: string[];
}

/**
 * The CORS header lists, derived from the contract at boot (issue 23 §1), not hand-kept: every header parameter and
 * header credential (`x-api-key`, …) of any operation a browser may call (not server-only, not a server's token), plus
 * `Content-Type`, `Authorization`, `If-None-Match`, `x-request-id`; and every response header the contract declares.
 */
export function corsHeadersFrom(contract: Contract, serverOnlyPaths: readonly string[] = []): CorsHeaders {
  const { document } = contract;
  const serverOnly = new Set(serverOnlyPaths.map((p) => p.toLowerCase()));
  const schemes = (document.components?.securitySchemes ?? {}) as Record<string, { type?: string; in?: string; name?: string }>;
  const allow = new Map<string, string>();
  const add = (target: Map<string, string>, name: string) => {
    if (!target.has(name.toLowerCase())) target.set(name.toLowerCase(), name);
  };
  for (const name of BASE_REQUEST_HEADERS) add(allow, name);
  for (const op of contract.operations) {
    if (SERVER_ACCESS.has(op.access) || serverOnly.has(op.path.toLowerCase())) continue;
    for (const param of op.parameters) if (param.in === 'header') add(allow, param.name);
    for (const requirement of op.security ?? []) {
      for (const schemeName of Object.keys(requirement)) {
        const scheme = schemes[schemeName];
        if (scheme?.type === 'apiKey' && scheme.in === 'header' && scheme.name) add(allow, scheme.name);
      }
    }
  }
  const expose = new Map<string, string>();
  for (const name of BASE_EXPOSED_HEADERS) add(expose, name);
  const resolve = (node: any): any => {
    let current = node;
    for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string' && hops < 10; hops++) {
      current = current.$ref
        .replace(/^#\//, '')
        .split('/')
        .map((segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce((at: any, key: string) => at?.[key], document);
    }
    return current;
  };
  const collect = (response: any) => {
    for (const name of Object.keys(resolve(response)?.headers ?? {})) if (!NOT_EXPOSABLE.has(name.toLowerCase())) add(expose, name);
  };
  for (const response of Object.values(document.components?.responses ?? {})) collect(response);
  for (const item of Object.values(document.paths ?? {}) as any[]) {
    for (const op of Object.values(resolve(item) ?? {}) as any[]) {
      for (const response of Object.values(op?.responses ?? {})) collect(response);
    }
  }
  return { allow: [...allow.values()], expose: [...expose.values()] };
}

export interface CorsOptions {
  /** `ALLOWED_ORIGIN`: `*` (echo any `Origin`) or a comma-separated list of origins to echo. */
  allowedOrigin: string;
  /**
   * `DASHBOARD_ORIGINS`: the only origins answered `Access-Control-Allow-Credentials: true` (the dashboard, whose
   * session cookie may ride along); they are echoed whatever `ALLOWED_ORIGIN` says. Every other origin gets
   * credential-less CORS: a browser sends no cookie to us from there, and reads no answer it sent one with.
   */
  credentialOrigins: readonly string[];
  headers: CorsHeaders;
  serverOnlyPaths?: readonly string[];
  /**
   * Routes any page may call, whatever `ALLOWED_ORIGIN` lists (the website chat, spec §5.6): the request's `Origin` is
   * echoed, never with credentials (not even for a dashboard origin).
   */
  anyOriginPaths?: readonly string[];
}

/**
 * Spec §5.6: browser endpoints stay wildcard-origin capable. With `ALLOWED_ORIGIN=*` (default) the request's
 * `Origin` is echoed (never a literal `*`); otherwise only the listed origins (comma-separated) are echoed.
 * Credentials (`Access-Control-Allow-Credentials: true`) only for the dashboard origins (`DASHBOARD_ORIGINS`).
 * The allowed and exposed header lists come from the contract (`corsHeadersFrom`). Requests without `Origin` get no CORS headers,
 * only `Vary: Origin` (a cache must not hand their answer to a browser that sends one): all @koa/cors does for
 * them, done here without its two awaits, as most requests (servers, the chat platform, curl) carry no Origin.
 * `serverOnlyPaths`: routes only servers call (an internal notification): they get no CORS headers and no
 * preflight answer whatever the request carries (compared case-insensitively, without a trailing `/`, as the
 * router matches).
 */
export function corsPolicy(options: CorsOptions): Koa.Middleware<AppState> {
  const { allowedOrigin, headers, serverOnlyPaths = [], anyOriginPaths = [] } = options;
  const serverOnly = new Set(serverOnlyPaths.map((p) => p.toLowerCase()));
  const anyOrigin = new Set(anyOriginPaths.map((p) => p.toLowerCase()));
  const listed = allowedOrigin.split(',').map((origin) => origin.trim()).filter(Boolean);
  const wildcard = listed.includes('*');
  const dashboards = new Set(options.credentialOrigins);
  const shared = {
    keepHeadersOnError: true,
    exposeHeaders: headers.expose,
    allowHeaders: headers.allow,
    allowMethods: ['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    maxAge: 600,
  };
  const withOrigin = cors({
    ...shared,
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      return wildcard || listed.includes(origin) || dashboards.has(origin) ? origin : '';
    },
    credentials: (ctx) => dashboards.has(ctx.get('Origin')),
  }) as unknown as Koa.Middleware<AppState>;
  const fromAnyOrigin = cors({ ...shared, origin: (ctx) => ctx.get('Origin'), credentials: false }) as unknown as Koa.Middleware<AppState>;
  const normalized = (path: string) => path.toLowerCase().replace(/(.)\/+$/, '$1');
  // The path as it is first (almost every request: lower case, no trailing slash), normalized only when it may differ.
  const isServerOnly = (path: string) => {
    if (serverOnly.has(path)) return true;
    const lower = path.toLowerCase();
    if (lower === path && path.charCodeAt(path.length - 1) !== 47) return false;
    return serverOnly.has(lower.replace(/\/+$/, ''));
  };
  return (ctx, next) => {
    if (serverOnly.size && isServerOnly(ctx.path)) return next();
    if (ctx.headers.origin !== undefined) return anyOrigin.size && anyOrigin.has(normalized(ctx.path)) ? fromAnyOrigin(ctx, next) : withOrigin(ctx, next);
    // First to touch Vary (only the request id is set before us), so no list to parse and merge.
    if (ctx.res.hasHeader('Vary')) ctx.vary('Origin');
    else ctx.res.setHeader('Vary', 'Origin');
    return next();
  };
}
