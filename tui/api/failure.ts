import { ApiError } from '../../sdk/index.ts';
import { SeedError } from '../../seed/index.ts';

/** What the screens show when something went wrong: a problem+json answer, or why there was no answer. */
export interface Failure {
  title: string;
  detail?: string;
  status?: number;
  code?: string;
  errors: Array<{ path: string; message: string }>;
}

/** Thrown by the flows for failures found before anything is sent (a malformed URL, a date that is not one). */
export class InputError extends Error {
  constructor(
    readonly title: string,
    readonly detail?: string,
    readonly errors: Array<{ path: string; message: string }> = [],
  ) {
    super(detail ? `${title}: ${detail}` : title);
    this.name = 'InputError';
  }
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused: is the server running on that address and port?',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ETIMEDOUT: 'the connection timed out',
};

/** Any thrown value as a Failure: never a stack trace on screen. */
export function toFailure(error: unknown): Failure {
  if (error instanceof ApiError) {
    return {
      title: error.title,
      detail: error.detail,
      status: error.status,
      code: error.code,
      errors: error.errors.map(({ path, message }) => ({ path, message })),
    };
  }
  if (error instanceof InputError) return { title: error.title, detail: error.detail, errors: error.errors };
  if (error instanceof SeedError) return { title: 'Seeding failed', detail: error.message, errors: [] };
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return { title: 'The server did not answer', detail: 'No answer within the time limit; try again.', code: 'timeout', errors: [] };
  }
  if (error instanceof TypeError && error.message === 'fetch failed') {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const code = cause?.code;
    const detail =
      (code && NETWORK_CODES[code]) ??
      (cause?.message === 'bad port' ? 'fetch refuses to connect to this port (it is on the blocked-ports list)' : cause?.message) ??
      'the request could not be sent';
    return { title: 'Cannot reach the server', detail: code ? `${detail} (${code})` : detail, code: 'unreachable', errors: [] };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { title: 'Unexpected error', detail: message, errors: [] };
}
