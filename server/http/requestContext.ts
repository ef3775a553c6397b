import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { Logger } from '../logger.ts';
import { ANONYMOUS, type AppState, type AuthContext } from './state.ts';

const INCOMING_ID = /^[\w.:-]{1,128}$/;

/**
 * `ctx.state` of every request. A class, so the per-request child logger is made lazily through a getter on the
 * prototype: most requests log nothing but their access line, and a child logger per request costs more than the
 * rest of this middleware.
 */
class RequestState implements AppState {
  auth: AuthContext = ANONYMOUS;
  hasBody?: boolean;
  private child?: Logger;

  constructor(
    readonly requestId: string,
    private readonly logger: Logger,
  ) {}

  get log(): Logger {
    return (this.child ??= this.logger.child({ requestId: this.requestId }));
  }
}

/**
 * First in the chain: a request id (the caller's `x-request-id` when sane, else a new one) returned as a
 * header and bound to the request's logger, and one access-log line per request. Only the path is logged,
 * never the query string, headers or body, so tokens in them stay out of the log.
 */
export function requestContext(logger: Logger): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const incoming = ctx.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    const started = process.hrtime.bigint();
    const state = new RequestState(requestId, logger);
    ctx.state = state;
    ctx.res.setHeader('x-request-id', requestId);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        { requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 100) / 100, role: state.auth.role },
        'request',
      );
    }
  };
}
