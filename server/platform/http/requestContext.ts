import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import { rawLineWriter, type Logger } from '../logger.ts';
import type { UploadedFile } from './state.ts';
import { ANONYMOUS, type AppState, type AuthContext } from './state.ts';

const INCOMING_ID = /^[\w.:-]{1,128}$/;

/**
 * `ctx.state` of every request. A class, so the per-request child logger is made lazily through a getter on the
 * prototype: most requests log nothing but their access line, and a child logger per request costs more than the
 * rest of this middleware.
 */
class RequestState implements AppState {
  auth: AuthContext = ANONYMOUS;
  // Declared, not defined: set by the body parser on the few requests that carry a body (a defined class field
  // costs a property definition on every request).
  declare hasBody?: boolean;
  declare mediaType?: string;
  declare rawBody?: Buffer;
  declare files?: Record<string, UploadedFile[]>;
  declare logPath?: string;
  declare operation?: { operationId: string; path: string };
  declare private child?: Logger;

  constructor(
    readonly requestId: string,
    private readonly logger: Logger,
  ) {}

  get log(): Logger {
    return (this.child ??= this.logger.child({ requestId: this.requestId }));
  }
}

/** Characters a path or method can carry into the JSON line as they are; anything else goes through JSON.stringify. */
const PLAIN = /^[\w\-./~%!$&'()*+,;=:@]*$/;
const jsonString = (value: string) => (PLAIN.test(value) ? `"${value}"` : JSON.stringify(value));

export interface AccessEntry {
  requestId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  role: string;
}

/**
 * The access line, exactly as `logger.info(entry, 'request')` would print it (same keys, same order; a test
 * holds the two together), built without pino: it is the one line every request writes, and pino's generic
 * serializing of it cost about as much as the rest of the request chain (issue 2's benchmark, P1). The request id is one we made or one that
 * passed INCOMING_ID, and the role comes from a fixed set, so only the method and path may need escaping.
 */
export function accessLine(entry: AccessEntry, time = Date.now()): string {
  return (
    `{"level":"info","time":${time},"requestId":"${entry.requestId}","method":${jsonString(entry.method)},` +
    `"path":${jsonString(entry.path)},"status":${entry.status},"ms":${entry.ms},"role":"${entry.role}","msg":"request"}\n`
  );
}

/**
 * First in the chain: a request id (the caller's `x-request-id` when sane, else a new one) returned as a
 * header and bound to the request's logger, and one access-log line per request at level info. Only the path is
 * logged, never the query string, headers or body, so tokens in them stay out of the log; an operation with
 * `x-log-path: template` (a secret in its path) is logged by its route template instead.
 */
export function requestContext(logger: Logger): Koa.Middleware<AppState> {
  const writeLine = rawLineWriter(logger);
  const writeAccess = (ctx: Koa.ParameterizedContext<AppState>, state: RequestState, started: number) => {
    const ms = Math.round((performance.now() - started) * 100) / 100;
    writeLine(accessLine({ requestId: state.requestId, method: ctx.method, path: state.logPath ?? ctx.path, status: ctx.status, ms, role: state.auth.role }));
  };
  return (ctx, next) => {
    const incoming = ctx.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    const started = performance.now();
    const state = new RequestState(requestId, logger);
    ctx.state = state;
    ctx.res.setHeader('x-request-id', requestId);
    // No access log at this level (LOG_LEVEL=warn and above): nothing to do once the request ends.
    if (!logger.isLevelEnabled('info')) return next();
    // A promise chain, not an async function: one await less on every request. The error boundary below
    // settles every error, so the rejection branch is only for a failure of the boundary itself. The callbacks
    // are inline, not bound to names: tsx (esbuild keepNames) would define a named arrow's `name` per request.
    return next().then(
      () => writeAccess(ctx, state, started),
      (err: unknown) => {
        writeAccess(ctx, state, started);
        throw err;
      },
    );
  };
}
