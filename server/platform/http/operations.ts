import { Readable, Stream } from 'node:stream';
import { ReadableStream as WebReadableStream } from 'node:stream/web';
import Router from '@koa/router';
import type Koa from 'koa';
import compose from 'koa-compose';
import type { AppContext } from '../context.ts';
import { accessGuard } from './access.ts';
import { crossSiteGuard } from './crossSite.ts';
import { toRouterPath, type DeprecatedAlias, type Operation } from './contract.ts';
import { checkFileType, isJsonType, parseMultipart, readBody } from './body.ts';
import { serializeCookie, type Call, type Handler, type HandlerMap, type Reply } from './handler.ts';
import { publicApiPolicy, type PolicyEntry } from './policy.ts';
import { MalformedBody, MethodNotAllowed, NotFound, PayloadTooLarge, Problem, UnsupportedMediaType, ValidationFailed, type FieldError } from './problem.ts';
import type { AppState } from './state.ts';
import { compileRequestValidators, compileResponseValidators, type LazyValidators, type OperationValidators, type ResponseValidator } from './validation.ts';

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
 * Mounts every operation of the contract by operationId. Each route runs, in order: the cross-site check of writes
 * signed in with the session cookie (crossSite.ts), public API policy,
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
  // Metrics and tracing name a request by its operation; nothing is added to the chain when neither is on.
  const observed = Boolean(app.metrics || app.tracing);
  const staticRoutes = new Map<string, Koa.Middleware<AppState>>();
  // Where a write signed in with the session cookie may come from (crossSite.ts): the dashboards and the API itself.
  const crossSite = { trustedOrigins: [...config.dashboardOrigins, new URL(config.publicApiUrl).origin] };

  for (const op of contract.operations) {
    if (op.access === 'disabled') continue;
    const chain = [
      observed ? markOperation(op) : undefined,
      op.logTemplate ? logAsTemplate(op.path) : undefined,
      op.alias ? deprecationNotice(op.alias) : undefined,
      crossSiteGuard(op, crossSite),
      publicApiPolicy(config.publicApiPolicyMode, registry, op),
      accessGuard(op, config.accessTokens, app.credentialThrottle),
      op.requestBody ? bodyParser(op, { json: config.jsonBodyLimitBytes, upload: config.uploadBodyLimitBytes }) : undefined,
      invoke(op, handlers[op.operationId], requestValidators, responseValidators, app),
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

  const templated = new Map(contract.operations.filter((op) => op.logTemplate).map((op) => [op.operationId, op.path]));
  const fallback: Koa.Middleware<AppState> = async (ctx) => {
    const match = router.match(ctx.path, ctx.method);
    const allowed = [...new Set(match.path.flatMap((layer) => layer.methods))];
    // A 405/OPTIONS on a path that carries a secret is logged by its template too.
    const secret = match.path.find((layer) => layer.name && templated.has(layer.name));
    if (secret) ctx.state.logPath = templated.get(secret.name!);
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

/** First in every operation's chain while requests are observed: metrics and spans name the operation, not the path. */
function markOperation(op: Operation): Koa.Middleware<AppState> {
  const operation = { operationId: op.operationId, path: op.path };
  return (ctx, next) => {
    ctx.state.operation = operation;
    return next();
  };
}

/** First in an `x-log-path: template` operation's chain: its log lines name `template`, not the path. */
function logAsTemplate(template: string): Koa.Middleware<AppState> {
  return (ctx, next) => {
    ctx.state.logPath = template;
    return next();
  };
}

/**
 * First in a deprecated alias's chain (`x-deprecated-alias`): every answer, a refusal included, carries
 * `Deprecation: @<unix seconds>` (RFC 9745) and `Link: <successor>; rel="successor-version"` (RFC 8288), the
 * successor's path filled with this request's path parameters. Set before anything can throw: the error
 * boundary keeps headers already set.
 */
function deprecationNotice(alias: DeprecatedAlias): Koa.Middleware<AppState> {
  const deprecation = `@${Math.floor(alias.since.getTime() / 1000)}`;
  const templated = alias.successorPath.includes('{');
  const fixedLink = `<${alias.successorPath}>; rel="successor-version"`;
  return (ctx, next) => {
    ctx.set('Deprecation', deprecation);
    const link = templated
      ? `<${alias.successorPath.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(ctx.params?.[name] ?? '')))}>; rel="successor-version"`
      : fixedLink;
    ctx.set('Link', link);
    return next();
  };
}

type BodyKind = 'none' | 'json' | 'text' | 'bytes' | 'stream';

function isNodeReadable(value: unknown): value is Readable {
  return value instanceof Readable || (value instanceof Stream && typeof (value as Readable).read === 'function');
}

function bodyKind(body: unknown): BodyKind {
  if (body === undefined || body === null) return 'none';
  if (typeof body === 'string') return 'text';
  if (body instanceof Uint8Array) return 'bytes';
  if (isNodeReadable(body) || body instanceof WebReadableStream || body instanceof globalThis.ReadableStream) return 'stream';
  return 'json';
}

function destroyStream(body: unknown): void {
  if (isNodeReadable(body)) body.destroy();
  else (body as WebReadableStream).cancel().catch(() => {});
}

/** `GET /Api/Auth/Me/` and `GET /api/auth/me` are one route, as with the router's defaults. */
function routeKey(method: string, path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return `${method} ${trimmed.toLowerCase()}`;
}

interface BodyLimits {
  json: number;
  upload: number;
}

/**
 * Reads the body as the operation's declared media types say (415 for any other): JSON through koa-body (or,
 * with `x-raw-body: true`, as bytes kept for the handler, then parsed); multipart/form-data in memory with each
 * file checked by magic bytes; any other declared type as raw bytes, checked by magic bytes against the
 * Content-Type. Limits (413 past them): a media type's `x-max-upload-bytes`, else the operation's (non-JSON
 * bodies only), else JSON_BODY_LIMIT_BYTES for JSON and UPLOAD_BODY_LIMIT_BYTES for the rest.
 */
let koaBodyModule: Promise<typeof import('koa-body')> | undefined;

function bodyParser(op: Operation, limits: BodyLimits): Koa.Middleware<AppState> {
  const declared = op.requestBody!;
  const accepted = Object.keys(declared.media);
  const jsonLimit = (declared.media['application/json']?.maxBytes ?? limits.json);
  // koa-body is loaded with the first JSON body, not with the app (issue 25: a start reads no body).
  let parseJsonMiddleware: Koa.Middleware<AppState> | undefined;
  const makeParser = (koaBody: typeof import('koa-body').koaBody) => koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit,
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] as never,
    onError: (err: Error & { status?: number }) => {
      if (err.status === 413) throw PayloadTooLarge(jsonLimit);
      throw MalformedBody(err instanceof SyntaxError || err.status === 400 ? 'The body is not valid JSON.' : err.message);
    },
  }) as unknown as Koa.Middleware<AppState>;
  const parseJson: Koa.Middleware<AppState> = async (ctx, next) => {
    parseJsonMiddleware ??= makeParser((await (koaBodyModule ??= import('koa-body'))).koaBody);
    return parseJsonMiddleware(ctx, next);
  };
  return async (ctx, next) => {
    const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
    if (!hasBody) return next();
    const key = accepted.find((type) => ctx.is(type));
    if (!key) throw UnsupportedMediaType(accepted);
    const media = declared.media[key];
    const type = ctx.request.type.toLowerCase();
    ctx.state.hasBody = true;
    ctx.state.mediaType = type;
    if (isJsonType(key) && !declared.rawBody) return parseJson(ctx, next);
    const encoding = ctx.get('content-encoding').toLowerCase();
    if (encoding && encoding !== 'identity') {
      throw new Problem(415, 'unsupported_content_encoding', 'Unsupported media type', { detail: 'Send this body without Content-Encoding.' });
    }
    if (isJsonType(key)) {
      const bytes = await readBody(ctx, jsonLimit);
      ctx.state.rawBody = bytes;
      const text = bytes.toString('utf8');
      // As koa-body's jsonStrict: an object or an array.
      if (!/^[\s\uFEFF]*[{[]/.test(text)) throw MalformedBody('The body is not valid JSON.');
      try {
        (ctx.request as { body?: unknown }).body = JSON.parse(text.replace(/^\uFEFF/, ''));
      } catch {
        throw MalformedBody('The body is not valid JSON.');
      }
      return next();
    }
    const limit = media.maxBytes ?? declared.maxBytes ?? limits.upload;
    if (key === 'multipart/form-data') {
      const { fields, files } = await parseMultipart(ctx, media, limit);
      (ctx.request as { body?: unknown }).body = fields;
      ctx.state.files = files;
      return next();
    }
    const bytes = await readBody(ctx, limit);
    await checkFileType(bytes, type, 'body');
    ctx.state.rawBody = bytes;
    return next();
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

  get contentType() {
    return this.koa.state.hasBody ? this.koa.state.mediaType : undefined;
  }

  get rawBody() {
    return this.koa.state.rawBody;
  }

  get files() {
    return this.koa.state.files ?? {};
  }

  file(field: string) {
    return this.koa.state.files?.[field]?.[0];
  }

  cookie(name: string) {
    return this.koa.cookies.get(name);
  }

  header(name: string) {
    return this.koa.get(name);
  }

  get ip() {
    return this.koa.ip;
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
  requestValidators: LazyValidators<OperationValidators>,
  responseValidators: LazyValidators<ResponseValidator> | undefined,
  app: AppContext,
): Koa.Middleware<AppState> {
  // Compiled at the operation's first request (validation.ts: compiling them all made every start 4 s longer).
  let requestChecks: OperationValidators | undefined;
  let responseCheck: ResponseValidator | undefined;
  const headerNames = op.parameters.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase());

  const send = (ctx: Koa.ParameterizedContext<AppState>, reply: Reply): void => {
    const body = reply.body;
    const kind = bodyKind(body);
    const contentType = kind === 'none' ? undefined : (reply.contentType ?? (kind === 'json' || kind === 'text' ? 'application/json' : 'application/octet-stream'));
    if (responseValidators) {
      const validateResponse = (responseCheck ??= responseValidators.get(op.operationId)!);
      const opaque = kind === 'bytes' || kind === 'stream';
      // JSON is checked as the client will read it: the bytes sent, when they were made already.
      const payload = kind === 'json' ? JSON.parse(reply.serialized ? reply.serialized.toString('utf8') : JSON.stringify(body)) : kind === 'none' ? undefined : body;
      const mismatch = validateResponse(reply.status, contentType, opaque ? undefined : payload, opaque);
      if (mismatch) {
        if (kind === 'stream') destroyStream(body);
        throw new Error(`Response does not match openapi.yaml: ${mismatch}`);
      }
    }
    // No body: an explicit null first (Koa would otherwise send the status message, "Found", as a text body;
    // a null body sets 204, so the status comes after it).
    if (kind === 'none') ctx.body = null;
    ctx.status = reply.status;
    // The type before the body: Koa then infers none (no mime lookup, no second header write).
    if (contentType !== undefined) ctx.set('Content-Type', kind === 'json' || kind === 'text' || contentType === 'text/event-stream' ? fullContentType(contentType) : contentType);
    // A kept answer's bytes go out as they are (Koa sends a Buffer without encoding it again).
    if (kind === 'json') ctx.body = reply.serialized ?? JSON.stringify(body);
    else if (kind === 'text') ctx.body = body as string;
    else if (kind === 'bytes') ctx.body = Buffer.isBuffer(body) ? body : Buffer.from((body as Uint8Array).buffer, (body as Uint8Array).byteOffset, (body as Uint8Array).byteLength);
    else if (kind === 'stream') {
      const readable = isNodeReadable(body) ? body : Readable.fromWeb(body as WebReadableStream<Uint8Array>);
      // Once the head is sent an error can only cut the response short; Koa would leave it hanging.
      readable.once('error', (err) => {
        ctx.state.log.error({ err }, 'response stream failed');
        if (ctx.headerSent) ctx.res.destroy(err);
      });
      ctx.body = readable;
    }
    // Headers after the body: assigning a stream body drops a Content-Length set before it.
    if (reply.headers) for (const name in reply.headers) ctx.set(name, reply.headers[name]);
    if (reply.cookies) for (const entry of reply.cookies) ctx.append('Set-Cookie', serializeCookie(entry, ctx.secure));
  };

  // Not async: a handler that answers synchronously (liveness, the contract) costs no extra turn of the
  // microtask queue. A synchronous throw reaches the error boundary as a rejection through koa-compose.
  // An operation without parameters or body, called without a query string (liveness, the principal, the
  // contract): there is nothing to validate, so no input to build.
  const bare = op.parameters.length === 0 && !op.requestBody;
  return (ctx) => {
    if (bare && !ctx.querystring) {
      const reply = handler(new HandlerCall(op.operationId, {}, {}, undefined, ctx, app));
      if (reply instanceof Promise) return reply.then((settled) => send(ctx, settled));
      send(ctx, reply);
      return Promise.resolve();
    }
    const input = {
      path: { ...ctx.params },
      query: ctx.querystring ? { ...ctx.query } : {},
      headers: headerNames.length ? Object.fromEntries(headerNames.filter((name) => ctx.get(name) !== '').map((name) => [name, ctx.get(name)])) : {},
    };
    const validators = (requestChecks ??= requestValidators.get(op.operationId)!);
    const errors: FieldError[] = validators.parameters(input);
    let body: unknown;
    if (op.requestBody) {
      if (ctx.state.hasBody) {
        if (!ctx.state.rawBody || isJsonType(ctx.state.mediaType!)) body = (ctx.request as { body?: unknown }).body;
        if (validators.body) errors.push(...validators.body(body, ctx.state.mediaType!));
      } else if (op.requestBody.required) {
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
