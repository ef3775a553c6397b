import { AsyncLocalStorage } from 'node:async_hooks';
import { context, createContextKey, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Context, type ContextManager, type Span, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { Knex } from 'knex';
import type Koa from 'koa';
import type { AppState } from '../http/state.ts';
import type { Logger } from '../logger.ts';
import type { Tracing } from './types.ts';

/**
 * The tracing implementation, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set (./tracing.ts `loadTracing`).
 *
 * Parent/child links ride on AsyncLocalStorage: a context manager of our own (the one in
 * `@opentelemetry/context-async-hooks` does the same and is not a dependency), registered once per process as the
 * API's global one. Every app keeps its own tracer provider and exporter (never the global provider: the AI SDK
 * would start tracing through it, and a test run builds many apps); the tracer of the span in progress travels in
 * the context, so a statement or an outbound call made under a span is traced by that span's app.
 */

class AsyncLocalStorageContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.storage.run(ctx, () => fn.apply(thisArg, args));
  }
  bind<T>(ctx: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const manager = this;
    return function bound(this: unknown, ...args: unknown[]) {
      return manager.with(ctx, () => (target as (...a: unknown[]) => unknown).apply(this, args));
    } as T;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

let contextManagerSet = false;
function ensureContextManager(): void {
  if (contextManagerSet) return;
  contextManagerSet = context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  if (!contextManagerSet) throw new Error('Another OpenTelemetry context manager is registered in this process; tracing needs its own');
}

/** The tracer of the span in progress (set with each request and job span). */
const TRACER = createContextKey('venue tracer');
const activeTracer = (ctx: Context) => ctx.getValue(TRACER) as Tracer | undefined;

// ---- W3C trace context (traceparent), read from requests and written on outbound calls ---------------------------------

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

function extractParent(header: string): Context {
  const match = TRACEPARENT.exec(header.trim());
  if (!match || /^0+$/.test(match[1]) || /^0+$/.test(match[2])) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: match[1], spanId: match[2], traceFlags: parseInt(match[3], 16) & TraceFlags.SAMPLED, isRemote: true });
}

function traceparentOf(span: Span): string {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

// ---- outbound fetch: one process-wide wrapper while any app traces ----------------------------------------------------

let originalFetch: typeof fetch | undefined;
let fetchUsers = 0;

function urlOf(input: Parameters<typeof fetch>[0]): URL | undefined {
  try {
    return new URL(input instanceof Request ? input.url : String(input));
  } catch {
    return undefined;
  }
}

function tracedFetch(original: typeof fetch): typeof fetch {
  return function fetchWithSpan(input, init) {
    const parent = context.active();
    const tracer = activeTracer(parent);
    if (!tracer) return original(input, init);
    const url = urlOf(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    // The URL without its query string: queries may carry secrets (signatures, tokens).
    const span = tracer.startSpan(
      `${method} ${url?.host ?? ''}`.trim(),
      { kind: SpanKind.CLIENT, attributes: { 'http.request.method': method, ...(url ? { 'server.address': url.hostname, 'url.full': `${url.origin}${url.pathname}` } : {}) } },
      parent,
    );
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set('traceparent', traceparentOf(span));
    return context.with(trace.setSpan(parent, span), () => original(input, { ...init, headers })).then(
      (response) => {
        span.setAttribute('http.response.status_code', response.status);
        if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
        return response;
      },
      (err: unknown) => {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
        span.end();
        throw err;
      },
    );
  };
}

function holdFetch(): () => void {
  if (fetchUsers++ === 0) {
    originalFetch = globalThis.fetch;
    globalThis.fetch = tracedFetch(originalFetch);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--fetchUsers === 0 && originalFetch) {
      globalThis.fetch = originalFetch;
      originalFetch = undefined;
    }
  };
}

// ---- the app's tracing ------------------------------------------------------------------------------------------------

interface KnexQuery {
  __knexQueryUid?: string;
  __knexTxId?: string;
  method?: string;
  sql?: string;
}

/** `SELECT`, `INSERT`, … (the statement's first keyword; a CTE counts as what it is: `WITH`). */
const operationOf = (query: KnexQuery) => /^\s*([a-z]+)/i.exec(query.sql ?? '')?.[1]?.toUpperCase() ?? (query.method ?? 'query').toUpperCase();

export function createTracing(options: { endpoint: string; serviceName: string; logger: Logger }): Tracing {
  ensureContextManager();
  const log = options.logger.child({ component: 'tracing' });
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName, [ATTR_SERVICE_VERSION]: process.env.npm_package_version ?? '0.1.0' }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('venue-backend');
  const releaseFetch = holdFetch();
  log.info({ endpoint: options.endpoint, serviceName: options.serviceName }, 'tracing on: spans go to the OTLP endpoint');

  const middleware: Koa.Middleware<AppState> = (ctx, next) => {
    const incoming = ctx.get('traceparent');
    const parent = incoming ? extractParent(incoming) : ROOT_CONTEXT;
    const span = tracer.startSpan(
      ctx.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'url.path': ctx.path, 'venue.request_id': ctx.state.requestId } },
      parent,
    );
    const end = () => {
      const operation = ctx.state.operation;
      if (operation) {
        span.updateName(`${ctx.method} ${operation.path}`);
        span.setAttribute('http.route', operation.path);
        span.setAttribute('venue.operation_id', operation.operationId);
      }
      span.setAttribute('http.response.status_code', ctx.status);
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    return context.with(trace.setSpan(parent, span).setValue(TRACER, tracer), () => next()).then(end, (err: unknown) => {
      span.recordException(err as Error);
      end();
      throw err;
    });
  };

  return {
    middleware,

    runJob(queue, job, run) {
      const span = tracer.startSpan(`job ${queue}`, {
        kind: SpanKind.CONSUMER,
        attributes: { 'messaging.system': 'pg-boss', 'messaging.destination.name': queue, 'messaging.message.id': job.id, 'venue.job.attempt': job.attempt },
      }, ROOT_CONTEXT);
      return context.with(trace.setSpan(ROOT_CONTEXT, span).setValue(TRACER, tracer), run).then(
        (result) => {
          span.end();
          return result;
        },
        (err: unknown) => {
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
          span.end();
          throw err;
        },
      );
    },

    instrumentDatabase(knex) {
      const open = new Map<string, Span>();
      const onQuery = (query: KnexQuery) => {
        const parent = context.active();
        // Only statements made under a request or a job: the job engine's polling would be noise.
        if (!query.__knexQueryUid || activeTracer(parent) !== tracer) return;
        const span = tracer.startSpan(
          operationOf(query),
          { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql', 'db.query.text': query.sql ?? '', ...(query.__knexTxId ? { 'venue.db.transaction': query.__knexTxId } : {}) } },
          parent,
        );
        open.set(query.__knexQueryUid, span);
      };
      const onResponse = (_response: unknown, query: KnexQuery) => {
        const span = query.__knexQueryUid ? open.get(query.__knexQueryUid) : undefined;
        if (!span) return;
        open.delete(query.__knexQueryUid!);
        span.end();
      };
      const onError = (err: Error, query: KnexQuery) => {
        const span = query.__knexQueryUid ? open.get(query.__knexQueryUid) : undefined;
        if (!span) return;
        open.delete(query.__knexQueryUid!);
        span.recordException(err);
        span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
        span.end();
      };
      knex.on('query', onQuery);
      knex.on('query-response', onResponse);
      knex.on('query-error', onError);
      return () => {
        knex.removeListener('query', onQuery);
        knex.removeListener('query-response', onResponse);
        knex.removeListener('query-error', onError);
        for (const span of open.values()) span.end();
        open.clear();
      };
    },

    flush: () => provider.forceFlush(),

    async shutdown() {
      releaseFetch();
      await provider.shutdown().catch((err: unknown) => log.warn({ err }, 'tracing: the last spans could not be sent'));
    },
  };
}
