import cors from '@koa/cors';
import type Koa from 'koa';
import type { AppState } from './state.ts';

/**
 * Spec §5.6: browser endpoints stay wildcard-origin capable. With `ALLOWED_ORIGIN=*` (default) the request's
 * `Origin` is echoed (never a literal `*`, so the dashboard cookie can ride along with credentials);
 * otherwise only the listed origins (comma-separated) are echoed. Requests without `Origin` get no CORS headers,
 * only `Vary: Origin` (a cache must not hand their answer to a browser that sends one): all @koa/cors does for
 * them, done here without its two awaits, as most requests (servers, the chat platform, curl) carry no Origin.
 * `serverOnlyPaths`: routes only servers call (an internal notification): they get no CORS headers and no
 * preflight answer whatever the request carries (compared case-insensitively, without a trailing `/`, as the
 * router matches).
 */
export function corsPolicy(allowedOrigin: string, serverOnlyPaths: string[] = []): Koa.Middleware<AppState> {
  const serverOnly = new Set(serverOnlyPaths.map((p) => p.toLowerCase()));
  const listed = allowedOrigin.split(',').map((origin) => origin.trim()).filter(Boolean);
  const wildcard = listed.includes('*');
  const withOrigin = cors({
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      return wildcard || listed.includes(origin) ? origin : '';
    },
    credentials: true,
    keepHeadersOnError: true,
    exposeHeaders: ['x-request-id', 'Retry-After', 'Allow', 'WWW-Authenticate', 'Deprecation', 'Link'],
    allowHeaders: ['Content-Type', 'Authorization', 'x-api-key', 'x-api-token', 'x-request-id'],
    allowMethods: ['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    maxAge: 600,
  }) as unknown as Koa.Middleware<AppState>;
  // The path as it is first (almost every request: lower case, no trailing slash), normalized only when it may differ.
  const isServerOnly = (path: string) => {
    if (serverOnly.has(path)) return true;
    const lower = path.toLowerCase();
    if (lower === path && path.charCodeAt(path.length - 1) !== 47) return false;
    return serverOnly.has(lower.replace(/\/+$/, ''));
  };
  return (ctx, next) => {
    if (serverOnly.size && isServerOnly(ctx.path)) return next();
    if (ctx.headers.origin !== undefined) return withOrigin(ctx, next);
    // First to touch Vary (only the request id is set before us), so no list to parse and merge.
    if (ctx.res.hasHeader('Vary')) ctx.vary('Origin');
    else ctx.res.setHeader('Vary', 'Origin');
    return next();
  };
}
