import { randomUUID } from 'node:crypto';

/**
 * Cloudflare Turnstile server-side validation (siteverify), as documented at
 * https://developers.cloudflare.com/turnstile/get-started/server-side-validation/: a POST of `secret`,
 * `response` (the widget's token), `remoteip` and an `idempotency_key` (so a retry of the same check is not
 * counted as a second use of the token) to the siteverify URL; the answer is JSON with `success`,
 * `error-codes`, `hostname`, `action`, `challenge_ts`.
 *
 * The client never turns a failure into a pass: a verdict is `{ ok: true }` only when siteverify answered
 * `success: true` (and the expected hostname/action when configured). A time-out, a network error, a non-2xx
 * answer or a body that is not siteverify's JSON throws `TurnstileUnavailable` (the caller answers 503 and
 * stores nothing). So do siteverify's own complaints about our secret (`missing-input-secret`,
 * `invalid-input-secret`): those are our configuration, not the visitor's fault.
 *
 * Cloudflare's documented test secrets behave as: `1x0000000000000000000000000000000AA` always passes,
 * `2x0000000000000000000000000000000AA` always fails, `3x0000000000000000000000000000000AA` answers
 * "token already spent" (`timeout-or-duplicate`). test/helpers/fakeTurnstile.ts mimics them.
 */

export const TURNSTILE_SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

export interface TurnstileOptions {
  secretKey: string;
  verifyUrl: string;
  timeoutMs: number;
  /** When set, the answer's `hostname` must equal it. */
  expectedHostname?: string;
  /** When set, the answer's `action` must equal it. */
  expectedAction?: string;
}

export type TurnstileVerdict = { ok: true; hostname: string | null; action: string | null } | { ok: false; reason: string; errorCodes: string[] };

export class TurnstileUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TurnstileUnavailable';
  }
}

const OUR_FAULT = new Set(['missing-input-secret', 'invalid-input-secret']);

export async function verifyTurnstileToken(options: TurnstileOptions, token: string, remoteIp: string | undefined, idempotencyKey: string = randomUUID()): Promise<TurnstileVerdict> {
  const form = new URLSearchParams({ secret: options.secretKey, response: token, idempotency_key: idempotencyKey });
  if (remoteIp) form.set('remoteip', remoteIp);
  let response: Response;
  try {
    response = await fetch(options.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (err) {
    throw new TurnstileUnavailable(`siteverify did not answer: ${(err as Error).name === 'TimeoutError' ? 'time-out' : (err as Error).message}`, { cause: err });
  }
  if (!response.ok) throw new TurnstileUnavailable(`siteverify answered HTTP ${response.status}`);
  let body: { success?: unknown; 'error-codes'?: unknown; hostname?: unknown; action?: unknown };
  try {
    body = (await response.json()) as typeof body;
  } catch (err) {
    throw new TurnstileUnavailable('siteverify answered something that is not JSON', { cause: err });
  }
  if (!body || typeof body.success !== 'boolean') throw new TurnstileUnavailable('siteverify answered without a boolean `success`');
  const errorCodes = Array.isArray(body['error-codes']) ? body['error-codes'].filter((code): code is string => typeof code === 'string') : [];
  if (errorCodes.some((code) => OUR_FAULT.has(code))) throw new TurnstileUnavailable(`siteverify refused our secret (${errorCodes.join(', ')})`);
  if (!body.success) return { ok: false, reason: errorCodes[0] ?? 'rejected', errorCodes };
  const hostname = typeof body.hostname === 'string' ? body.hostname : null;
  const action = typeof body.action === 'string' ? body.action : null;
  if (options.expectedHostname && hostname !== options.expectedHostname) return { ok: false, reason: 'hostname-mismatch', errorCodes };
  if (options.expectedAction && action !== options.expectedAction) return { ok: false, reason: 'action-mismatch', errorCodes };
  return { ok: true, hostname, action };
}
