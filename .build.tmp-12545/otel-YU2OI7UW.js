import { createRequire as __venueCreateRequire } from 'node:module'; const require = __venueCreateRequire(import.meta.url);
import {
  __name
} from "./chunk-D2NJZ3J4.js";

// server/platform/observability/otel.ts
import { AsyncLocalStorage } from "node:async_hooks";
import { context, createContextKey, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
var AsyncLocalStorageContextManager = class {
  static {
    __name(this, "AsyncLocalStorageContextManager");
  }
  storage = new AsyncLocalStorage();
  active() {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with(ctx, fn, thisArg, ...args) {
    return this.storage.run(ctx, () => fn.apply(thisArg, args));
  }
  bind(ctx, target) {
    if (typeof target !== "function") return target;
    const manager = this;
    return /* @__PURE__ */ __name(function bound(...args) {
      return manager.with(ctx, () => target.apply(this, args));
    }, "bound");
  }
  enable() {
    return this;
  }
  disable() {
    this.storage.disable();
    return this;
  }
};
var contextManagerSet = false;
function ensureContextManager() {
  if (contextManagerSet) return;
  contextManagerSet = context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  if (!contextManagerSet) throw new Error("Another OpenTelemetry context manager is registered in this process; tracing needs its own");
}
__name(ensureContextManager, "ensureContextManager");
var TRACER = createContextKey("venue tracer");
var activeTracer = /* @__PURE__ */ __name((ctx) => ctx.getValue(TRACER), "activeTracer");
var TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
function extractParent(header) {
  const match = TRACEPARENT.exec(header.trim());
  if (!match || /^0+$/.test(match[1]) || /^0+$/.test(match[2])) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: match[1], spanId: match[2], traceFlags: parseInt(match[3], 16) & TraceFlags.SAMPLED, isRemote: true });
}
__name(extractParent, "extractParent");
function traceparentOf(span) {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${(traceFlags & 255).toString(16).padStart(2, "0")}`;
}
__name(traceparentOf, "traceparentOf");
var originalFetch;
var fetchUsers = 0;
function urlOf(input) {
  try {
    return new URL(input instanceof Request ? input.url : String(input));
  } catch {
    return void 0;
  }
}
__name(urlOf, "urlOf");
function tracedFetch(original) {
  return /* @__PURE__ */ __name(function fetchWithSpan(input, init) {
    const parent = context.active();
    const tracer = activeTracer(parent);
    if (!tracer) return original(input, init);
    const url = urlOf(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const span = tracer.startSpan(
      `${method} ${url?.host ?? ""}`.trim(),
      { kind: SpanKind.CLIENT, attributes: { "http.request.method": method, ...url ? { "server.address": url.hostname, "url.full": `${url.origin}${url.pathname}` } : {} } },
      parent
    );
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : void 0));
    headers.set("traceparent", traceparentOf(span));
    return context.with(trace.setSpan(parent, span), () => original(input, { ...init, headers })).then(
      (response) => {
        span.setAttribute("http.response.status_code", response.status);
        if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
        return response;
      },
      (err) => {
        span.recordException(err);
        span.setStatus({ code: SpanStatusCode.ERROR, message: err?.message });
        span.end();
        throw err;
      }
    );
  }, "fetchWithSpan");
}
__name(tracedFetch, "tracedFetch");
function holdFetch() {
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
      originalFetch = void 0;
    }
  };
}
__name(holdFetch, "holdFetch");
var operationOf = /* @__PURE__ */ __name((query) => /^\s*([a-z]+)/i.exec(query.sql ?? "")?.[1]?.toUpperCase() ?? (query.method ?? "query").toUpperCase(), "operationOf");
function createTracing(options) {
  ensureContextManager();
  const log = options.logger.child({ component: "tracing" });
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, "")}/v1/traces` });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName, [ATTR_SERVICE_VERSION]: process.env.npm_package_version ?? "0.1.0" }),
    spanProcessors: [new BatchSpanProcessor(exporter)]
  });
  const tracer = provider.getTracer("venue-backend");
  const releaseFetch = holdFetch();
  log.info({ endpoint: options.endpoint, serviceName: options.serviceName }, "tracing on: spans go to the OTLP endpoint");
  const middleware = /* @__PURE__ */ __name((ctx, next) => {
    const incoming = ctx.get("traceparent");
    const parent = incoming ? extractParent(incoming) : ROOT_CONTEXT;
    const span = tracer.startSpan(
      ctx.method,
      { kind: SpanKind.SERVER, attributes: { "http.request.method": ctx.method, "url.path": ctx.path, "venue.request_id": ctx.state.requestId } },
      parent
    );
    const end = /* @__PURE__ */ __name(() => {
      const operation = ctx.state.operation;
      if (operation) {
        span.updateName(`${ctx.method} ${operation.path}`);
        span.setAttribute("http.route", operation.path);
        span.setAttribute("venue.operation_id", operation.operationId);
      }
      span.setAttribute("http.response.status_code", ctx.status);
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }, "end");
    return context.with(trace.setSpan(parent, span).setValue(TRACER, tracer), () => next()).then(end, (err) => {
      span.recordException(err);
      end();
      throw err;
    });
  }, "middleware");
  return {
    middleware,
    runJob(queue, job, run) {
      const span = tracer.startSpan(`job ${queue}`, {
        kind: SpanKind.CONSUMER,
        attributes: { "messaging.system": "pg-boss", "messaging.destination.name": queue, "messaging.message.id": job.id, "venue.job.attempt": job.attempt }
      }, ROOT_CONTEXT);
      return context.with(trace.setSpan(ROOT_CONTEXT, span).setValue(TRACER, tracer), run).then(
        (result) => {
          span.end();
          return result;
        },
        (err) => {
          span.recordException(err);
          span.setStatus({ code: SpanStatusCode.ERROR, message: err?.message });
          span.end();
          throw err;
        }
      );
    },
    instrumentDatabase(knex) {
      const open = /* @__PURE__ */ new Map();
      const onQuery = /* @__PURE__ */ __name((query) => {
        const parent = context.active();
        if (!query.__knexQueryUid || activeTracer(parent) !== tracer) return;
        const span = tracer.startSpan(
          operationOf(query),
          { kind: SpanKind.CLIENT, attributes: { "db.system.name": "postgresql", "db.query.text": query.sql ?? "", ...query.__knexTxId ? { "venue.db.transaction": query.__knexTxId } : {} } },
          parent
        );
        open.set(query.__knexQueryUid, span);
      }, "onQuery");
      const onResponse = /* @__PURE__ */ __name((_response, query) => {
        const span = query.__knexQueryUid ? open.get(query.__knexQueryUid) : void 0;
        if (!span) return;
        open.delete(query.__knexQueryUid);
        span.end();
      }, "onResponse");
      const onError = /* @__PURE__ */ __name((err, query) => {
        const span = query.__knexQueryUid ? open.get(query.__knexQueryUid) : void 0;
        if (!span) return;
        open.delete(query.__knexQueryUid);
        span.recordException(err);
        span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
        span.end();
      }, "onError");
      knex.on("query", onQuery);
      knex.on("query-response", onResponse);
      knex.on("query-error", onError);
      return () => {
        knex.removeListener("query", onQuery);
        knex.removeListener("query-response", onResponse);
        knex.removeListener("query-error", onError);
        for (const span of open.values()) span.end();
        open.clear();
      };
    },
    flush: /* @__PURE__ */ __name(() => provider.forceFlush(), "flush"),
    async shutdown() {
      releaseFetch();
      await provider.shutdown().catch((err) => log.warn({ err }, "tracing: the last spans could not be sent"));
    }
  };
}
__name(createTracing, "createTracing");
export {
  createTracing
};
