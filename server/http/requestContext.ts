import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { Logger } from '../logger.ts';
import { ANONYMOUS, type AppState } from './state.ts';

const INCOMING_ID = /^[\w.:-]{1,128}$/;

/**
 * First in the chain: a request id (the caller's `x-request-id` when sane, else a new one) returned as a
 * header and bound to a child logger, and one access-log line per request. Only the path is logged, never
 * the query string, headers or body, so tokens in them stay out of the log.
 */
export function requestContext(logger: Logger): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = INCOMING_ID.test(incoming) ? incoming : randomUUID();
    const started = process.hrtime.bigint();
    ctx.state.requestId = requestId;
    ctx.state.auth = ANONYMOUS;
    ctx.state.log = logger.child({ requestId });
    ctx.set('x-request-id', requestId);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      ctx.state.log.info(
        { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 100) / 100, role: ctx.state.auth.role },
        'request',
      );
    }
  };
}
