/**
 * Typed problem codes. Every error answer is an RFC 9457 problem+json body whose `code` is one of the contract's
 * registry (`components.schemas.ProblemCode`, each code described in openapi.yaml; an operation lists the codes it
 * may answer, beyond the generic ones, in its `x-problem-codes`). `isProblem` narrows an unknown error to a problem
 * with the given code(s), so a misspelled code does not type-check:
 *
 *   const { data, error } = await client.POST('/api/public/reservations', { body });
 *   if (isProblem(error, 'sold_out', 'not_enough_seats')) showWaitlist(error.detail);
 *
 *   try { unwrap(await client.POST(…)) } catch (err) { if (isProblem(err, 'hold_expired')) … }
 *
 * It accepts the `error` of a `{ data, error }` result (the problem body) and an `ApiError` thrown by `unwrap`.
 */
import type { components } from './schema.d.ts';

type Schemas = components['schemas'];

/** Every `code` a problem answer may carry. */
export type ProblemCode = Schemas['ProblemCode'];
/** Codes any operation may answer (body, identity, access, validation, rate limits, server errors). */
export type GenericProblemCode = Schemas['GenericProblemCode'];
/** Codes an operation's handler answers; the contract lists each operation's in `x-problem-codes`. */
export type OperationProblemCode = Schemas['OperationProblemCode'];
/** The `code` of one entry of a problem's `errors[]` (`required`, `oneOf`, `maxLength`, … or a problem code). */
export type FieldErrorCode = Schemas['FieldErrorCode'];
/** One entry of a problem's `errors[]`: the failing field's path, a message, its code. */
export type ProblemFieldError = NonNullable<Schemas['Problem']['errors']>[number];

/** What a problem with code `C` offers: the body's fields an `ApiError` carries too. */
export interface ProblemOf<C extends ProblemCode = ProblemCode> {
  status: number;
  code: C;
  title: string;
  detail?: string;
  requestId?: string;
  errors?: ProblemFieldError[];
}

/**
 * True when `error` is a problem (a problem+json body, or an `ApiError`) whose code is one of `codes` (any code
 * when none is given); narrows `error` to `ProblemOf<that code>`.
 */
export function isProblem<C extends ProblemCode = ProblemCode>(error: unknown, ...codes: C[]): error is ProblemOf<C> {
  if (typeof error !== 'object' || error === null) return false;
  const { code, status } = error as { code?: unknown; status?: unknown };
  if (typeof code !== 'string' || typeof status !== 'number') return false;
  return codes.length === 0 || (codes as string[]).includes(code);
}
