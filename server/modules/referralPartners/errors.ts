import { Conflict } from '../../platform/http/problem.ts';

/**
 * The Postgres unique violation of `constraint` (both drivers report `code` 23505), raw from knex or wrapped by
 * objection (db-errors' `UniqueViolationError` keeps the driver's error as `nativeError`).
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const wrapped = err as { nativeError?: unknown } | null | undefined;
  const e = (wrapped?.nativeError ?? err) as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return false;
  return !constraint || e.constraint === constraint || (e.message ?? '').includes(constraint);
}

export const SlugTaken = () => Conflict('slug_taken', 'Another partner has this public slug.');
export const SLUG_INDEX = 'referral_partners_public_slug_unique';
