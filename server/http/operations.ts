import Router from '@koa/router';
import type Koa from 'koa';
import compose from 'koa-compose';
import { koaBody } from 'koa-body';
import type { AppContext } from '../context.ts';
import { accessGuard } from './access.ts';
import { toRouterPath, type Operation } from './contract.ts';
import type { Call, Handler, HandlerMap, Reply } from './handler.ts';
import { publicApiPolicy, type PolicyEntry } from './policy.ts';
import { MalformedBody, MethodNotAllowed, NotFound, PayloadTooLarge, UnsupportedMediaType, ValidationFailed, type FieldError } from './problem.ts';
import type { AppState } from './state.ts';
import { compileRequestValidators, compileResponseValidators, type OperationValidators, type ResponseValidator } from './validation.ts';

/** Refuses to boot when the contract and the handler map disagree (openapi-backend's strict mode). */
export function checkHandlers(operations: Operation[], handlers: HandlerMap): string[] {
  const problems: string[] = [];
  const declared = new Set(operations.map((op) => op.operationId));
  for (const op of operations) {
    if (op.access !== 'disabled' && !handlers[op.operationId]) problems.push(`operation ${op.operationId} has no handler`);
  }
  for (const id of Object.keys(handlers)) {
    if (!declared.has(id)) problems.push(`handler ${id} has no operation in openapi.yaml`);
  }
  return problems;
}

interface MountOptions {
  app: AppContext;
  handlers: HandlerMap;
  registry: PolicyEntry[];
}

/**
 * Mounts every operation of the contract by operationId. Each route runs, in order: public API policy,
 * access (x-access), body parsing, request validation, handler, response validation — composed once at boot.
 * Paths without parameters are found in a map (one lookup, whatever the number of operations); templated
 * paths go through @koa/router. Both match as the router does: case-insensitively, with or without a trailing
 * slash, HEAD answered by GET. Disabled operations are not mounted and answer 404.
 * Unknown path → 404; known path, other method → 405 with Allow; OPTIONS → 204 with Allow.
 */
export function mountOperations({ app, handlers, registry }: MountOptions): Koa.Middleware<AppState>[] {
  const { contract, config } = app;
  const requestValidators = compileRequestValidators(contract, config.nodeEnv !== 'production');
  const responseValidators = config.validateResponses ? compileResponseValidators(contract) : undefined;
  const router = new Router<AppState>();
  const staticRoutes = new Map<string, Koa.Middleware<AppState>>();

  for (const op of contract.operations) {
    if (op.access === 'disabled') continue;
    const chain = [
      publicApiPolicy(config.publicApiPolicyMode, registry, op),
      accessGuard(op, config.accessTokens),
      op.requestBody ? bodyParser(op, config.jsonBodyLimitBytes) : undefined,
      invoke(op, handlers[op.operationId], requestValidators.get(op.operationId)!, responseValidators?.get(op.operationId), app),
    ].filter((middleware) => middleware !== undefined);
    const route = chain.length === 1 ? chain[0] : compose(chain);
    // Registered with the router in every case: it answers templated paths and lists methods for 404/405.
    router.register(toRouterPath(op.path), [op.method], route as any, { name: op.operationId });
    if (!op.path.includes('{')) staticRoutes.set(routeKey(op.method, op.path), route);
  }

  const staticDispatch: Koa.Middleware<AppState> = (ctx, next) => {
    const route = staticRoutes.get(routeKey(ctx.method === 'HEAD' ? 'GET' : ctx.method, ctx.path));
    if (!route) return next();
    ctx.params = {};
    return route(ctx, next);
  };

  const fallback: Koa.Middleware<AppState> = async (ctx) => {
    const match = router.match(ctx.path, ctx.method);
    const allowed = [...new Set(match.path.flatMap((layer) => layer.methods))];
    if (allowed.length === 0) throw NotFound(`No route ${ctx.method} ${ctx.path}.`);
    if (ctx.method === 'OPTIONS') {
      ctx.set('Allow', [...allowed, 'OPTIONS'].join(', '));
      ctx.status = 204;
      return;
    }
    throw MethodNotAllowed(allowed);
  };
  return [staticDispatch, router.routes() as unknown as Koa.Middleware<AppState>, fallback];
}

/** `GET /Api/Auth/Me/` and `GET /api/auth/me` are one route, as with the router's defaults. */
function routeKey(method: string, path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return `${method} ${trimmed.toLowerCase()}`;
}

function bodyParser(op: Operation, limit: number): Koa.Middleware<AppState> {
  const accepted = Object.keys(op.requestBody!.content);
  const parse = koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: limit,
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] as never,
    onError: (err: Error & { status?: number }) => {
      if (err.status === 413) throw PayloadTooLarge(limit);
      throw MalformedBody(err instanceof SyntaxError || err.status === 400 ? 'The body is not valid JSON.' : err.message);
    },
  }) as unknown as Koa.Middleware<AppState>;
  return async (ctx, next) => {
    const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
    if (!hasBody) return next();
    if (!ctx.is(accepted)) throw UnsupportedMediaType(accepted);
    ctx.state.hasBody = true;
    return parse(ctx, next);
  };
}

/** The argument every handler gets; a class so that the request's logger is made only when a handler logs. */
class HandlerCall implements Call {
  constructor(
    readonly operationId: string,
    readonly params: Record<string, any>,
    readonly query: Record<string, any>,
    readonly body: unknown,
    readonly koa: Koa.ParameterizedContext<AppState>,
    readonly app: AppContext,
  ) {}

  get auth() {
    return this.koa.state.auth;
  }

  get requestId() {
    return this.koa.state.requestId;
  }

  get log() {
    return this.koa.state.log;
  }
}

const TEXTUAL = /^(text\/|application\/(json|yaml|[\w.-]+\+json)($|;))/;
const fullContentTypes = new Map<string, string>();

/** `application/json` → `application/json; charset=utf-8`: textual bodies are sent as UTF-8 strings. */
function fullContentType(type: string): string {
  let full = fullContentTypes.get(type);
  if (full === undefined) {
    full = TEXTUAL.test(type) && !type.includes('charset=') ? `${type}; charset=utf-8` : type;
    if (fullContentTypes.size < 64) fullContentTypes.set(type, full);
  }
  return full;
}

function invoke(
  op: Operation,
  handler: Handler,
  validators: OperationValidators,
  validateResponse: ResponseValidator | undefined,
  app: AppContext,
): Koa.Middleware<AppState> {
  const headerNames = op.parameters.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase());

  const send = (ctx: Koa.ParameterizedContext<AppState>, reply: Reply): void => {
    const contentType = reply.body === undefined ? undefined : (reply.contentType ?? 'application/json');
    if (validateResponse) {
      const payload = reply.body === undefined || typeof reply.body === 'string' ? reply.body : JSON.parse(JSON.stringify(reply.body));
      const mismatch = validateResponse(reply.status, contentType, payload);
      if (mismatch) throw new Error(`Response does not match openapi.yaml: ${mismatch}`);
    }
    if (reply.headers) for (const name in reply.headers) ctx.set(name, reply.headers[name]);
    ctx.status = reply.status;
    if (reply.body !== undefined) {
      ctx.set('Content-Type', fullContentType(contentType!));
      ctx.body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    }
  };

  // Not async: a handler that answers synchronously (liveness, the contract) costs no extra turn of the
  // microtask queue. A synchronous throw reaches the error boundary as a rejection through koa-compose.
  return (ctx) => {
    const input = {
      path: { ...ctx.params },
      query: ctx.querystring ? { ...ctx.query } : {},
      headers: headerNames.length ? Object.fromEntries(headerNames.filter((name) => ctx.get(name) !== '').map((name) => [name, ctx.get(name)])) : {},
    };
    const errors: FieldError[] = validators.parameters(input);
    let body: unknown;
    if (validators.body) {
      if (ctx.state.hasBody) {
        body = (ctx.request as { body?: unknown }).body;
        errors.push(...validators.body(body));
      } else if (op.requestBody?.required) {
        errors.push({ path: 'body', message: 'is required', code: 'required' });
      }
    }
    if (errors.length) throw ValidationFailed(errors);

    const reply = handler(new HandlerCall(op.operationId, input.path, input.query, body, ctx, app));
    if (reply instanceof Promise) return reply.then((settled) => send(ctx, settled));
    send(ctx, reply);
    return Promise.resolve();
  };
}
