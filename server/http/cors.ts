import cors from '@koa/cors';
import type Koa from 'koa';
import type { AppState } from './state.ts';

/**
 * Spec §5.6: browser endpoints stay wildcard-origin capable. With `ALLOWED_ORIGIN=*` (default) the request's
 * `Origin` is echoed (never a literal `*`, so the dashboard cookie can ride along with credentials);
 * otherwise only the listed origins (comma-separated) are echoed. Requests without `Origin` get no CORS headers.
 */
export function corsPolicy(allowedOrigin: string): Koa.Middleware<AppState> {
  const listed = allowedOrigin.split(',').map((origin) => origin.trim()).filter(Boolean);
  const wildcard = listed.includes('*');
  return cors({
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      return wildcard || listed.includes(origin) ? origin : '';
    },
    credentials: true,
    keepHeadersOnError: true,
    exposeHeaders: ['x-request-id', 'Retry-After', 'Allow'],
    allowHeaders: ['Content-Type', 'Authorization', 'x-api-key', 'x-api-token', 'x-request-id'],
    allowMethods: ['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    maxAge: 600,
  }) as unknown as Koa.Middleware<AppState>;
}
