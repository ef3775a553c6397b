/**
 * The problem codes, as types. The registry is the contract's (`openapi/components/problemCodes.yaml`, each code
 * with what it means); these are its generated types, so `Conflict('sold_uot', …)` or a code the contract does
 * not list fails `tsc`. Every helper in problem.ts takes a `ProblemCode`, every field error a `FieldErrorCode`:
 * a code is written as a literal at the throw site, where a reader wants it, and checked against the registry.
 * Which operation may answer which code is declared per operation (`x-problem-codes`); the tests' contract
 * checker holds every answer to it, and test/http/problemCodes.spec.ts keeps this registry and the code in step.
 */
import type { components } from '../../../sdk/schema.d.ts';

type Schemas = components['schemas'];

/** Every `code` a problem+json answer may carry. */
export type ProblemCode = Schemas['ProblemCode'];
/** Codes the request path answers for any operation (body, identity, access, validation, limits, the boundary). */
export type GenericProblemCode = Schemas['GenericProblemCode'];
/** Codes handlers answer; an operation declares the ones it may answer in `x-problem-codes`. */
export type OperationProblemCode = Schemas['OperationProblemCode'];
/** Every `code` of an entry in a problem's `errors[]`: a schema keyword's name (`required`, `oneOf`) or an operation code. */
export type FieldErrorCode = Schemas['FieldErrorCode'];
