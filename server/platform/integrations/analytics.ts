import { randomUUID } from 'node:crypto';
import { PostHog } from 'posthog-node';
import type { Logger } from '../logger.ts';

/**
 * Server-side analytics (spec §6.1) and server exceptions (§6.5 item 4) through PostHog, only when
 * `ANALYTICS_ENABLED=true`. Disabled, it does nothing at all: no client is created, nothing is queued, no
 * connection is made.
 *
 * Nothing here blocks or fails a caller: `capture` and `captureException` only queue in memory; the queue is
 * sent to `<POSTHOG_HOST>/batch/` in the background (every `flushIntervalMs`, or at once past `flushAt`
 * events) and on `shutdown()`; a failed send is logged, never thrown. Commands call `capture` after their
 * transaction has committed.
 */
export interface Analytics {
  readonly enabled: boolean;
  /** A business event (spec §6.1), e.g. `reservation created`. Call after the command's transaction commits. */
  capture(event: { distinctId: string; event: string; properties?: Record<string, unknown> }): void;
  /** A server exception (status ≥ 500). Sends only the error (name, message, stack, causes) and these fields. */
  captureException(err: unknown, context: ExceptionContext): void;
  /** Sends what is queued now (resolves even when the send fails; the failure is logged). */
  flush(): Promise<void>;
  /** Sends what is queued and stops taking events (bounded by `shutdownTimeoutMs`; never throws). */
  shutdown(): Promise<void>;
}

export interface ExceptionContext {
  requestId?: string;
  method?: string;
  /** The route template (`/api/shows/{id}`) or the path, never the query string. */
  route?: string;
  status?: number;
}

export interface AnalyticsOptions {
  enabled: boolean;
  apiKey?: string;
  host: string;
  timeoutMs: number;
  /** How long after the first queued event the queue is sent. */
  flushIntervalMs?: number;
  /** Queue length that triggers a send at once. */
  flushAt?: number;
  /** Bound on the last send at shutdown. */
  shutdownTimeoutMs?: number;
  /** Pause before the one retry of a failed send. */
  retryDelayMs?: number;
}

const DISABLED: Analytics = Object.freeze({
  enabled: false,
  capture() {},
  captureException() {},
  flush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
});

export function createAnalytics(options: AnalyticsOptions, logger: Logger): Analytics {
  if (!options.enabled || !options.apiKey) {
    logger.info('analytics disabled (ANALYTICS_ENABLED is not true): no events are sent');
    return DISABLED;
  }
  const log = logger.child({ component: 'analytics' });
  const flushIntervalMs = options.flushIntervalMs ?? 10_000;
  const flushAt = options.flushAt ?? 20;
  const client = new PostHog(options.apiKey, {
    host: options.host,
    // The library's own batching would log failures to the console; it is turned off and done below instead.
    flushAt: Number.MAX_SAFE_INTEGER,
    flushInterval: 0,
    maxQueueSize: 10_000,
    requestTimeout: options.timeoutMs,
    fetchRetryCount: 1,
    fetchRetryDelay: options.retryDelayMs ?? 1_000,
    disableGeoip: true,
    enableExceptionAutocapture: false,
  });
  let queued = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    queued = 0;
    // posthog-node queues a captured event a few promise turns after `capture` returns: wait for them to settle
    // (nothing in between does I/O) so the send includes every event captured before this call.
    return new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => client.flush())
      .then(
      () => undefined,
      (err: unknown) => log.warn({ err: describe(err) }, 'analytics events could not be sent'),
    );
  }

  function queuedOne(): void {
    queued += 1;
    if (queued >= flushAt) void flush();
    else if (!timer) {
      timer = setTimeout(() => void flush(), flushIntervalMs);
      timer.unref();
    }
  }

  return {
    enabled: true,
    capture({ distinctId, event, properties }) {
      if (closed) return;
      try {
        client.capture({ distinctId, event, properties: { ...properties, $process_person_profile: Boolean(distinctId) } });
        queuedOne();
      } catch (err) {
        log.warn({ err: describe(err), event }, 'analytics event dropped');
      }
    },
    captureException(err, context) {
      if (closed) return;
      try {
        // Built by hand (not posthog's captureException): an allow-list of fields, nothing else of the error
        // object (which may carry a request, its headers or its body) and nothing of the request.
        const properties: Record<string, unknown> = {
          $exception_list: exceptionList(err),
          $exception_level: 'error',
          $process_person_profile: false,
          requestId: context.requestId,
          method: context.method,
          route: context.route,
          status: context.status,
        };
        client.capture({ distinctId: context.requestId ?? randomUUID(), event: '$exception', properties });
        queuedOne();
      } catch (failure) {
        log.warn({ err: describe(failure) }, 'analytics exception dropped');
      }
    },
    flush,
    async shutdown() {
      if (closed) return;
      closed = true;
      // One last send, bounded. Not posthog's own shutdown(): it prints a failed send on the console.
      let bound: NodeJS.Timeout | undefined;
      const expired = new Promise<void>((resolve) => {
        bound = setTimeout(() => {
          log.warn('analytics: shutdown time-out, events not sent are dropped');
          resolve();
        }, options.shutdownTimeoutMs ?? 5_000);
        bound.unref();
      });
      await Promise.race([flush(), expired]);
      clearTimeout(bound);
    },
  };
}

const MAX_TEXT = 1_000;
const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 3)}...` : text);

interface StackFrame {
  platform: 'node:javascript';
  function: string;
  filename: string;
  lineno?: number;
  colno?: number;
  in_app: boolean;
}

/** PostHog's `$exception_list`: the error and its causes (name, message, parsed stack), nothing else. */
function exceptionList(err: unknown) {
  const list: Array<Record<string, unknown>> = [];
  let current: unknown = err;
  while (list.length < 5 && current !== undefined && current !== null) {
    const error = current instanceof Error ? current : new Error(typeof current === 'string' ? current : 'Non-error thrown');
    const frames = parseStack(error.stack ?? '');
    list.push({
      type: error.name || 'Error',
      value: clip(error.message ?? ''),
      mechanism: { type: 'generic', handled: true, synthetic: !(current instanceof Error) },
      ...(frames.length ? { stacktrace: { type: 'raw', frames } } : {}),
    });
    current = current instanceof Error ? current.cause : undefined;
  }
  return list;
}

/** V8 stack lines (`at fn (file:line:col)`), innermost last as PostHog expects. */
function parseStack(stack: string): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const line of stack.split('\n').slice(1, 51)) {
    const match = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?\s*$/.exec(line);
    if (!match) continue;
    const filename = match[2].replace(/^file:\/\//, '');
    frames.push({
      platform: 'node:javascript',
      function: match[1] ?? '?',
      filename,
      lineno: Number(match[3]),
      colno: Number(match[4]),
      in_app: !filename.includes('node_modules') && !filename.startsWith('node:'),
    });
  }
  return frames.reverse();
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
