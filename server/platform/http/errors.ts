import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Koa from 'koa';
import { isPrivileged } from '../auth/roles.ts';
import type { AppState } from './state.ts';
import { MalformedBody, PayloadTooLarge, Problem, UnsupportedMediaType, WWW_AUTHENTICATE } from './problem.ts';
import { isDatabaseUnavailable } from '../db/connectionErrors.ts';

export const PROBLEM_TYPE_BASE = 'https://venue.local/problems/';

/** What the boundary tells `onServerError` about a request that failed with a 5xx: never its body or headers. */
export interface ServerErrorInfo {
  requestId: string;
  method: string;
  /** The matched route template (`/api/sudo/users/:id`) when the router matched one, else the path (no query). */
  route: string;
  status: number;
}

export interface ErrorBoundaryOptions {
  jsonBodyLimitBytes: number;
  /** Called (synchronously, must not throw) for every response with status ≥ 500, e.g. analytics. */
  onServerError?: (err: unknown, info: ServerErrorInfo) => void;
}

/**
 * Turns anything thrown below into a problem+json response. `public` callers get the sanitized form;
 * staff and above also get the error name, message, stack and cause chain (spec §7).
 */
export function errorBoundary(options: ErrorBoundaryOptions): Koa.Middleware<AppState> {
  const { onServerError } = options;
  // A promise chain, not an async function: one await less on every request (koa-compose turns a synchronous
  // throw below into a rejection, so the catch sees everything).
  return (ctx, next) =>
    next().catch((thrown: unknown) => {
      const problem = toProblem(thrown, options.jsonBodyLimitBytes);
      if (problem.status >= 500) {
        ctx.state.log?.error({ err: thrown }, 'request failed');
        if (onServerError) reportServerError(onServerError, thrown, ctx, problem.status);
      }
      renderProblem(ctx, problem, thrown);
    });
}

function reportServerError(
  report: NonNullable<ErrorBoundaryOptions['onServerError']>,
  thrown: unknown,
  ctx: Koa.ParameterizedContext<AppState>,
  status: number,
): void {
  try {
    const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
    report(thrown, { requestId: ctx.state.requestId, method: ctx.method, route: typeof route === 'string' ? route : ctx.path, status });
  } catch (err) {
    ctx.state.log?.warn({ err }, 'server error report failed');
  }
}

export function renderProblem(ctx: Koa.ParameterizedContext<AppState>, problem: Problem, thrown: unknown = problem): void {
  const body: Record<string, unknown> = {
    type: PROBLEM_TYPE_BASE + problem.code,
    title: problem.title,
    status: problem.status,
    code: problem.code,
    requestId: ctx.state.requestId,
  };
  if (problem.detail !== undefined) body.detail = withoutServerPaths(problem.detail);
  if (problem.errors?.length) body.errors = problem.errors;
  if (isPrivileged(ctx.state.auth?.role) && thrown instanceof Error) body.debug = describe(thrown);
  ctx.status = problem.status;
  // RFC 9110 §15.5.2: every 401 names the schemes that would be accepted.
  if (problem.status === 401) ctx.set('WWW-Authenticate', WWW_AUTHENTICATE);
  for (const [name, value] of Object.entries(problem.headers ?? {})) ctx.set(name, value);
  ctx.type = 'application/problem+json';
  ctx.body = body;
}

function toProblem(thrown: unknown, limit: number): Problem {
  if (thrown instanceof Problem) return thrown;
  const err = thrown as { status?: number; statusCode?: number; type?: string; expose?: boolean; message?: string };
  const status = err?.status ?? err?.statusCode;
  // Errors raised by the body parser (co-body / raw-body) carry an HTTP status: they are the caller's fault.
  if (status === 413) return PayloadTooLarge(limit);
  if (status === 415) return UnsupportedMediaType(['application/json; charset=utf-8']);
  if (status === 400 && err.expose) {
    return MalformedBody(err.type === 'entity.parse.failed' ? 'The body is not valid JSON.' : String(err.message));
  }
  if (status && status >= 400 && status < 500 && err.expose) {
    return new Problem(status, 'bad_request', 'Bad request', { detail: String(err.message) });
  }
  if (isDatabaseUnavailable(thrown)) {
    return new Problem(503, 'database_unavailable', 'Service unavailable', {
      detail: 'The database does not answer at the moment; nothing was changed. Try again shortly.',
      headers: { 'Retry-After': '5' },
    });
  }
  return new Problem(500, 'internal_error', 'Internal server error', {
    detail: 'An unexpected error occurred. Quote the request id when reporting it.',
  });
}

interface ErrorDescription {
  name: string;
  message: string;
  stack?: string;
  cause?: Array<{ name: string; message: string; stack?: string }>;
}

function describe(error: Error): ErrorDescription {
  const cause: ErrorDescription['cause'] = [];
  let next: unknown = error.cause;
  while (next instanceof Error && cause.length < 10) {
    cause.push({ name: next.name, message: withoutServerPaths(next.message), stack: scrubStack(next.stack) });
    next = next.cause;
  }
  return { name: error.name, message: withoutServerPaths(error.message), stack: scrubStack(error.stack), ...(cause.length ? { cause } : {}) };
}

/** The project's root (server/platform/http/ is two levels down): stack frames are named relative to it. */
const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Directories no answer names: the project root and working directory (made relative), home and temp (`~`, `<tmp>`). */
const SERVER_DIRS: Array<[string, string]> = [
  ...[...new Set([PROJECT_ROOT, process.cwd()])].sort((a, b) => b.length - a.length).flatMap((dir): Array<[string, string]> => [[`file://${dir}/`, ''], [`${dir}/`, '']]),
  [`${os.tmpdir()}/`, '<tmp>/'],
  [`${os.homedir()}/`, '~/'],
].filter(([dir]) => dir.length > 2) as Array<[string, string]>;

/**
 * A message or detail without this server's absolute paths: the project's own files relative to its root (what
 * a developer needs: `server/platform/http/problem.ts:47:50`), the home and temp directories abbreviated. Error bodies,
 * 4xx included, never tell a caller where the server lives on disk (its user, its directories).
 */
function withoutServerPaths(text: string): string {
  let out = text;
  for (const [dir, replacement] of SERVER_DIRS) out = out.split(dir).join(replacement);
  return out;
}

/** A stack without absolute paths: project frames relative to the root, any other file (a global install, npx's cache) by its name. */
function scrubStack(stack: string | undefined): string | undefined {
  if (stack === undefined) return undefined;
  return withoutServerPaths(stack).replace(/(?<=^|[\s(])(?:file:\/\/)?(?:\/[^\s()/]+)+\/([^\s()/]+:\d+:\d+)/gm, '$1');
}
