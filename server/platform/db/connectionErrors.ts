/**
 * Whether an error means the database could not be reached or dropped the session (PostgreSQL restarting, a network
 * cut, no connection within knex's acquire time-out), as opposed to a statement it refused. Such a request did not
 * happen (its transaction, if any, was rolled back by the server): the caller may try again, so it is answered 503
 * `database_unavailable` with `Retry-After`, not 500. The error's `cause` chain is searched too.
 */
const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, and the connection exceptions (class 08).
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

const MESSAGES = [
  /^Knex: Timeout acquiring a connection/,
  /Connection terminated/,
  /Connection ended unexpectedly/,
  /Client has encountered a connection error and is not queryable/,
  /terminating connection due to administrator command/,
  /the database system is (starting up|shutting down|in recovery mode)/,
];

export function isDatabaseUnavailable(thrown: unknown): boolean {
  let err = thrown as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; err && typeof err === 'object' && depth < 5; depth++) {
    if (typeof err.code === 'string' && CODES.has(err.code)) return true;
    if (typeof err.message === 'string' && MESSAGES.some((pattern) => pattern.test(err!.message as string))) return true;
    err = err.cause as typeof err;
  }
  return false;
}
