import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const CENSOR = '[redacted]';

/** Header paths pino blanks when a request or response object is logged. */
const REDACTED_HEADER_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-api-token"]',
  'res.headers["set-cookie"]',
];

/** Keys whose values never reach the log, at the top level of a line or one level down (`{ body: { password } }`). */
export const SECRET_KEYS: readonly string[] = ['password', 'token', 'key', 'apiKey', 'secret'];

/** Everything blanked on every line: credentials, cookies, passwords and tokens never reach the log. */
export const REDACTED_PATHS = [...REDACTED_HEADER_PATHS, ...SECRET_KEYS, ...SECRET_KEYS.map((key) => `*.${key}`)];

const SECRET = new Set(SECRET_KEYS);

function hasSecret(value: object): boolean {
  for (const key in value) if (SECRET.has(key)) return true;
  return false;
}

/** A copy of `value` with its secret fields blanked; an Error stays an Error (same class, message, stack, cause). */
function censored(value: object): Record<string, unknown> {
  let copy: Record<string, unknown>;
  if (value instanceof Error) {
    copy = Object.create(Object.getPrototypeOf(value));
    Object.assign(copy, value);
    for (const field of ['message', 'stack', 'cause'] as const) {
      if (field in value) Object.defineProperty(copy, field, { value: value[field], enumerable: false, writable: true, configurable: true });
    }
  } else {
    copy = { ...value };
  }
  for (const secret of SECRET_KEYS) if (Object.hasOwn(copy, secret)) copy[secret] = CENSOR;
  return copy;
}

/**
 * The secret keys are redacted here, once per line, instead of through pino's wildcard paths (`*.password`):
 * pino runs a wildcard redactor (clone, walk, JSON.stringify) on every value of every line, about half the
 * logger's cost per request, although almost no line carries anything to redact. This walks only the keys of
 * the top two levels and copies the line only when something must be blanked; the caller's object is never
 * changed. Arrays are not searched (as with the `*.key` paths before).
 */
function redactSecrets<T extends Record<string, unknown>>(object: T): T {
  let out: Record<string, unknown> | undefined;
  for (const key in object) {
    const value = object[key];
    if (SECRET.has(key)) {
      out ??= { ...object };
      out[key] = CENSOR;
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value) && hasSecret(value)) {
      out ??= { ...object };
      out[key] = censored(value);
    }
  }
  return (out ?? object) as T;
}

type FlushableStream = DestinationStream & { flush(cb?: (err?: Error) => void): void; flushSync(): void; end(): void };

/**
 * Log lines gathered in memory and handed to the destination as one string once `minLength` characters are
 * waiting, or `maxDelayMs` after the first of them: under load one write system call per ~20 lines instead of
 * one per line. sonic-boom can batch by itself (`minLength`), but it measures its whole pending
 * buffer (`Buffer.byteLength` of up to 4 KiB) on every line it gets, about a microsecond per request; this costs
 * an array push. Nothing is lost or reordered: `flush`/`flushSync` (pino's `logger.flush()`) and the process's
 * exit, even through `process.exit()`, hand on what is waiting first.
 */
export class LineBuffer implements DestinationStream {
  private lines: string[] = [];
  private size = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly target: FlushableStream,
    private readonly minLength = 4096,
    private readonly maxDelayMs = 250,
  ) {
    openBuffers.add(this);
  }

  write(line: string): void {
    this.lines.push(line);
    this.size += line.length;
    if (this.size >= this.minLength) this.handOn();
    else this.timer ??= setTimeout(this.handOn, this.maxDelayMs).unref();
  }

  private readonly handOn = () => {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.lines.length === 0) return;
    const chunk = this.lines.length === 1 ? this.lines[0] : this.lines.join('');
    this.lines = [];
    this.size = 0;
    this.target.write(chunk);
  };

  flush(cb?: (err?: Error) => void): void {
    this.handOn();
    this.target.flush(cb);
  }

  flushSync(): void {
    this.handOn();
    this.target.flushSync();
  }

  end(): void {
    this.handOn();
    openBuffers.delete(this);
    this.target.end();
  }
}

/** Every buffer in use; on exit their lines are written synchronously. */
const openBuffers = new Set<LineBuffer>();
process.once('exit', () => {
  for (const buffer of openBuffers) {
    try {
      buffer.flushSync();
    } catch {
      // stdout already closed: nothing left to write to
    }
  }
});

/**
 * stdout through sonic-boom behind a LineBuffer. Writes are synchronous, as with pino's own default: one small
 * system call per batch, no thread-pool round trip, nothing in flight when the process exits. A stdout that
 * stops reading (a stuck log collector) holds the server up rather than letting lines pile up in memory.
 */
function stdoutDestination(): DestinationStream {
  return new LineBuffer(pino.destination({ dest: 1, sync: true }));
}

/**
 * Writes a line serialized elsewhere (the access line, see http/requestContext.ts) to the logger's own
 * destination, in order with the lines pino writes there. The caller checks the level and ends the line with `\n`.
 */
export function rawLineWriter(logger: Logger): (line: string) => void {
  const destination = (logger as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym];
  return (line) => destination.write(line);
}

export function createLogger(level: string, destination?: NodeJS.WritableStream | DestinationStream): Logger {
  const logger = pino(
    {
      level,
      base: undefined,
      redact: { paths: REDACTED_HEADER_PATHS, censor: CENSOR },
      formatters: {
        level: (label) => ({ level: label }),
        log: redactSecrets,
      },
    },
    (destination as DestinationStream | undefined) ?? stdoutDestination(),
  );
  // Child bindings (`logger.child({ requestId })`) are redacted the same way. pino children inherit from their
  // parent, so this one override covers every descendant.
  const child = logger.child;
  logger.child = function redactedChild(this: Logger, bindings: Record<string, unknown>, options?: unknown) {
    return child.call(this, redactSecrets(bindings), options as never);
  } as Logger['child'];
  return logger;
}
