import { UniqueViolationError } from 'objection';

/**
 * Whether `err` is a unique violation (PostgreSQL `23505`, which both drivers, pg and PGlite, report as `code`),
 * optionally of one `constraint` (an index or constraint name): raw from knex, or wrapped by objection (db-errors'
 * `UniqueViolationError`, which keeps the driver's error as `nativeError`). The one test every command uses to turn
 * a lost race on a unique key into its 409.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const wrapped = err as { nativeError?: unknown } | null | undefined;
  const native = (wrapped?.nativeError ?? err) as { code?: unknown; constraint?: unknown; message?: unknown } | null | undefined;
  const unique = err instanceof UniqueViolationError || native?.code === '23505' || (err as { code?: unknown } | null | undefined)?.code === '23505';
  if (!unique || constraint === undefined) return unique;
  const named = [native?.constraint, err instanceof UniqueViolationError ? err.constraint : undefined];
  return named.includes(constraint) || (typeof native?.message === 'string' && native.message.includes(constraint));
}
