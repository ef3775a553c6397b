/** Errors with a stable machine code, rendered as application/problem+json by the error boundary. */
import type { FieldErrorCode, ProblemCode } from './problemCodes.ts';

export interface FieldError {
  path: string;
  message: string;
  code: FieldErrorCode;
}

export interface ProblemOptions {
  detail?: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  cause?: unknown;
}

export class Problem extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  readonly title: string;
  readonly detail?: string;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;

  constructor(status: number, code: ProblemCode, title: string, options: ProblemOptions = {}) {
    super(options.detail ?? title, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'Problem';
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = options.detail;
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

/**
 * The `WWW-Authenticate` challenge sent with every 401: the credentials the API accepts (spec §5.1), in
 * resolution order: an API key (`x-api-key`), a superuser token (`Authorization: Bearer`, or `x-api-token`),
 * and the dashboard session cookie set by `POST /api/auth/sign-in`. Only Bearer is a registered scheme; the
 * others tell a human or a client library where the credential goes.
 */
export const WWW_AUTHENTICATE =
  'ApiKey realm="venue", header="x-api-key", Bearer realm="venue", Cookie realm="venue", cookie-name="venue_session"';

export const ValidationFailed = (errors: FieldError[], detail = 'The request has invalid fields.') =>
  new Problem(400, 'validation_failed', 'Invalid request', { detail, errors });

export const MalformedBody = (detail: string) => new Problem(400, 'malformed_body', 'Malformed request body', { detail });

export const BodyTooDeep = (maxDepth: number) =>
  new Problem(400, 'body_too_deep', 'Malformed request body', { detail: `The body nests more than ${maxDepth} levels deep.` });

export const Unauthenticated = (detail = 'Sign in or present a valid credential.') =>
  new Problem(401, 'unauthenticated', 'Authentication required', { detail });

export const NoActiveMembership = () =>
  new Problem(401, 'no_active_membership', 'Authentication required', {
    detail: 'Your session has no membership in its active organization; switch organization or sign in again.',
  });

export const InvalidCredentials = () =>
  new Problem(401, 'invalid_credentials', 'Invalid credentials', { detail: 'The identifier or password is wrong.' });

export const Forbidden = (code: ProblemCode, detail: string) => new Problem(403, code, 'Forbidden', { detail });

export const NotFound = (detail = 'No such resource.') => new Problem(404, 'not_found', 'Not found', { detail });

export const MethodNotAllowed = (allowed: string[]) =>
  new Problem(405, 'method_not_allowed', 'Method not allowed', {
    detail: `Allowed: ${allowed.join(', ')}.`,
    headers: { Allow: allowed.join(', ') },
  });

export const Conflict = (code: ProblemCode, detail: string) => new Problem(409, code, 'Conflict', { detail });

export const PayloadTooLarge = (limit: number) =>
  new Problem(413, 'payload_too_large', 'Payload too large', { detail: `The body is over ${limit} bytes.` });

export const UnsupportedMediaType = (accepted: string[]) =>
  new Problem(415, 'unsupported_media_type', 'Unsupported media type', {
    detail: `This operation takes ${accepted.join(', ')}.`,
  });

export const Unprocessable = (code: ProblemCode, detail: string, errors?: FieldError[]) =>
  new Problem(422, code, 'Unprocessable content', { detail, errors });

/**
 * A 422 whose code is that of its first field error: for writes whose field checks carry operation codes
 * (`unknown_locale`, `guest_range`, `duplicate_item`). Field codes are a wider union (`required`, `oneOf`), so
 * the narrowing is asserted here once; the contract checks the answer's code in every test.
 */
export const UnprocessableFields = (detail: string, errors: FieldError[]) =>
  new Problem(422, errors[0].code as ProblemCode, 'Unprocessable content', { detail, errors });

export const TooManyRequests = (retryAfterSeconds: number, detail: string) =>
  new Problem(429, 'too_many_requests', 'Too many requests', {
    detail,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

export const ServiceUnavailable = (code: ProblemCode, detail: string) =>
  new Problem(503, code, 'Service unavailable', { detail });
