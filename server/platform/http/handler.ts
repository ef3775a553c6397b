import type { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type Koa from 'koa';
import type { components, operations, webhooks } from '../../../sdk/schema.d.ts';
import type { AppContext } from '../context.ts';
import type { Logger } from '../logger.ts';
import type { AppState, AuthContext, UploadedFile } from './state.ts';

export type { UploadedFile } from './state.ts';

/** What a handler receives: validated (coerced, defaulted) input, the caller, and the app's services. */
export interface Call<P = Record<string, any>, Q = Record<string, any>, B = any> {
  operationId: string;
  params: P;
  query: Q;
  /**
   * JSON requests: the parsed, validated body. multipart/form-data: the validated fields (a file field holds
   * the file's name; its bytes are in `files`). Raw media types (`application/octet-stream`, `image/png` …):
   * undefined — read `rawBody`.
   */
  body: B;
  /** The request's media type (lower case, no parameters); undefined without a body. */
  contentType: string | undefined;
  /**
   * The body's exact bytes: always for raw media types, and for JSON when the operation sets `x-raw-body: true`
   * (webhook signatures are computed over these bytes, not over re-serialized JSON).
   */
  rawBody: Buffer | undefined;
  /** multipart/form-data files by field name (each already checked against its declared type by magic bytes). */
  files: Record<string, UploadedFile[]>;
  /** The first file of a field. */
  file(field: string): UploadedFile | undefined;
  /** A request cookie. */
  cookie(name: string): string | undefined;
  /** A request header ('' when absent). */
  header(name: string): string;
  /** The peer address (X-Forwarded-For when TRUST_PROXY). */
  ip: string;
  auth: AuthContext;
  log: Logger;
  requestId: string;
  app: AppContext;
  /** Escape hatch for reading the request; handlers set the response only through their Reply. */
  koa: Koa.ParameterizedContext<AppState>;
}

export interface CookieOptions {
  httpOnly?: boolean;
  sameSite?: 'lax' | 'strict' | 'none';
  /** Defaults to whether the request came over HTTPS (behind a proxy: with TRUST_PROXY). */
  secure?: boolean;
  /** Seconds, as the Max-Age attribute (0 deletes the cookie). */
  maxAge?: number;
  /** Defaults to `/`. */
  path?: string;
  domain?: string;
}

export interface ReplyCookie {
  name: string;
  value: string;
  options?: CookieOptions;
}

/** Bodies sent as they are: bytes, a Node stream or a web stream (SSE, the AI SDK's UI message stream …). */
export type BinaryBody = Buffer | Uint8Array | Readable | WebReadableStream<Uint8Array> | globalThis.ReadableStream<Uint8Array>;

export interface Reply<S extends number = number, B = unknown> {
  status: S;
  /** JSON (serialized), a string, a Buffer/Uint8Array, a Node Readable or a web ReadableStream. */
  body?: B;
  /** Defaults to application/json for JSON bodies and application/octet-stream for bytes and streams. */
  contentType?: string;
  headers?: Record<string, string>;
  /** Set-Cookie, one per entry. */
  cookies?: ReplyCookie[];
  /**
   * A JSON body already serialised (UTF-8), sent as it is instead of serialising `body` again: an answer kept in
   * memory is made once and sent many times. It must be `body`'s JSON; `body` is what responses are validated against.
   */
  serialized?: Buffer;
}

// ---- Types taken from the contract (sdk/schema.d.ts): a contract change that breaks a handler fails tsc. ----

/**
 * The operations the server answers: those of the contract's `paths`. The `webhooks` section's operations (what the
 * venue sends to other systems, issue 36 §3) are in `operations` too, but no handler serves them.
 */
type WebhookOperation = { [W in keyof webhooks]: webhooks[W]['post'] }[keyof webhooks];
export type OperationId = { [K in keyof operations]: operations[K] extends WebhookOperation ? never : K }[keyof operations];
/** A schema of the contract by name: a presenter returns `Schema<'Show'>`, so a field the contract lacks fails tsc. */
export type Schema<N extends keyof components['schemas']> = components['schemas'][N];
type Parameters<K extends OperationId> = operations[K]['parameters'];
type Group<K extends OperationId, G extends 'path' | 'query'> = Parameters<K> extends { [key in G]?: infer T } ? ([T] extends [never] ? Record<string, never> : NonNullable<T>) : Record<string, never>;
type BodyOf<C> = C extends { 'application/json': infer B } ? B : C extends { 'multipart/form-data': infer B } ? B : undefined;
type RequestBody<K extends OperationId> = operations[K] extends { requestBody: { content: infer C } }
  ? BodyOf<C>
  : operations[K] extends { requestBody?: { content: infer C } }
    ? BodyOf<C> | undefined
    : undefined;
/** JSON media types keep their schema's type; any other declared media type takes bytes or a stream. */
type MediaBody<C> = { [T in keyof C]: T extends 'application/json' | `${string}+json` ? C[T] : BinaryBody | string }[keyof C];
type Content<R> = R extends { content: infer C } ? MediaBody<C> : undefined;
type Responses<K extends OperationId> = operations[K]['responses'];
type ReplyStatus = 200 | 201 | 202 | 204 | 206 | 301 | 302 | 303 | 304 | 307 | 308;
/** The successful replies an operation declares: `{ status: 200, body: Account } | { status: 204 }` … */
export type OperationReply<K extends OperationId> = {
  [S in keyof Responses<K>]: S extends number ? (S extends ReplyStatus ? Reply<S, Content<Responses<K>[S]>> : never) : never;
}[keyof Responses<K>];

export type OperationHandler<K extends OperationId> = (
  call: Call<Group<K, 'path'>, Group<K, 'query'>, RequestBody<K>>,
) => Promise<OperationReply<K>> | OperationReply<K>;

/** Every operation of the contract mapped to its handler: the compiler reports a missing or misnamed one. */
export type OperationHandlers = { [K in OperationId]: OperationHandler<K> };

export type Handler = (call: Call) => Promise<Reply> | Reply;
export type HandlerMap = Record<string, Handler>;

export interface ReplyOptions {
  headers?: Record<string, string>;
  cookies?: ReplyCookie[];
}

export const json = <S extends number, B>(status: S, body: B, headers?: Record<string, string>): Reply<S, B> => ({ status, body, headers });

/** `json()` for a body whose JSON is already at hand (`serialized`: exactly `JSON.stringify(body)` as UTF-8). */
export const serializedJson = <S extends number, B>(status: S, body: B, serialized: Buffer, headers?: Record<string, string>): Reply<S, B> => ({
  status,
  body,
  serialized,
  headers,
});

export const noContent = (headers?: Record<string, string>): Reply<204, never> => ({ status: 204, headers });

/**
 * Bytes with their type; `filename` adds `Content-Disposition` (`attachment` unless `inline`), with an
 * RFC 6266 `filename*` for non-ASCII names. Content-Length is the buffer's length.
 */
export function bytes<S extends number = 200>(
  body: Buffer | Uint8Array,
  contentType: string,
  options: ReplyOptions & { status?: S; filename?: string; inline?: boolean } = {},
): Reply<S, Buffer | Uint8Array> {
  const headers = { ...options.headers };
  if (options.filename !== undefined) headers['Content-Disposition'] = contentDisposition(options.filename, options.inline);
  return { status: (options.status ?? 200) as S, body, contentType, headers, cookies: options.cookies };
}

/**
 * A stream: a Node Readable or a web ReadableStream, sent as it produces (nothing buffered). `length` sets
 * Content-Length when known; `text/event-stream` also gets `Cache-Control: no-cache` and `X-Accel-Buffering: no`.
 * A client that goes away destroys (cancels) the stream.
 */
export function stream<S extends number = 200>(
  body: Readable | WebReadableStream<Uint8Array> | globalThis.ReadableStream<Uint8Array>,
  contentType: string,
  options: ReplyOptions & { status?: S; length?: number; filename?: string; inline?: boolean } = {},
): Reply<S, BinaryBody> {
  const headers = { ...options.headers };
  if (options.length !== undefined) headers['Content-Length'] = String(options.length);
  if (options.filename !== undefined) headers['Content-Disposition'] = contentDisposition(options.filename, options.inline);
  if (contentType.startsWith('text/event-stream')) {
    headers['Cache-Control'] ??= 'no-cache';
    headers['X-Accel-Buffering'] ??= 'no';
  }
  return { status: (options.status ?? 200) as S, body, contentType, headers, cookies: options.cookies };
}

/** 3xx with Location (302 unless told). */
export function redirect<S extends 301 | 302 | 303 | 307 | 308 = 302>(location: string, status?: S, options: ReplyOptions = {}): Reply<S, never> {
  return { status: (status ?? 302) as S, headers: { ...options.headers, Location: location }, cookies: options.cookies };
}

/** 304 Not Modified (conditional GET); headers such as ETag and Cache-Control are repeated. */
export const notModified = (headers?: Record<string, string>): Reply<304, never> => ({ status: 304, headers });

/** Whether `If-None-Match` (`*`, a list, weak forms) names `etag`: then the answer is notModified(). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/** A Set-Cookie for a reply: `{ ...json(200, body), cookies: [cookie('a', 'b', { httpOnly: true })] }`. */
export const cookie = (name: string, value: string, options?: CookieOptions): ReplyCookie => ({ name, value, options });

/** A Set-Cookie that deletes the cookie (same path and domain as when it was set). */
export const expiredCookie = (name: string, options: CookieOptions = {}): ReplyCookie => ({ name, value: '', options: { ...options, maxAge: 0 } });

/** The same reply with cookies added. */
export function withCookies<R extends Reply>(reply: R, ...cookies: ReplyCookie[]): R {
  return { ...reply, cookies: [...(reply.cookies ?? []), ...cookies] };
}

export function contentDisposition(filename: string, inline = false): string {
  const kind = inline ? 'inline' : 'attachment';
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  if (ascii === filename) return `${kind}; filename="${ascii}"`;
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())}`;
}

const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

/** `name=value; Path=/; Max-Age=…; Expires=…; HttpOnly; Secure; SameSite=Lax`. Throws on a name or value a cookie cannot carry. */
export function serializeCookie(entry: ReplyCookie, requestIsSecure: boolean): string {
  const { name, value, options = {} } = entry;
  if (!COOKIE_NAME.test(name)) throw new TypeError(`cookie name ${JSON.stringify(name)} is not a token`);
  if (!COOKIE_VALUE.test(value)) throw new TypeError(`cookie ${name}: the value has characters a cookie cannot carry`);
  const parts = [`${name}=${value}`, `Path=${options.path ?? '/'}`];
  if (options.domain) parts.push(`Domain=${options.domain}`);
  if (options.maxAge !== undefined) {
    const seconds = Math.max(0, Math.floor(options.maxAge));
    parts.push(`Max-Age=${seconds}`, `Expires=${new Date(seconds === 0 ? 0 : Date.now() + seconds * 1000).toUTCString()}`);
  }
  if (options.httpOnly) parts.push('HttpOnly');
  if (options.secure ?? requestIsSecure) parts.push('Secure');
  if (options.sameSite) parts.push(`SameSite=${options.sameSite[0].toUpperCase()}${options.sameSite.slice(1)}`);
  return parts.join('; ');
}
