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

/**
 * stdout through sonic-boom, asynchronously, in batches of at least 4 KiB: one write per ~20 access-log lines
 * under load instead of one write (a thread-pool round trip) per line. sonic-boom writes out whatever is
 * buffered every 250 ms (`periodicFlush`), and pino flushes synchronously on exit, so no line is held back for
 * long or lost.
 */
function stdoutDestination(): DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 });
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
