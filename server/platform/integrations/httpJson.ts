/**
 * One JSON POST to an outside platform with a time-out, classified for the caller's retry decision. Shared by
 * the chat-platform (ManyChat) and WhatsApp Cloud API clients.
 *
 * `delivery` says what a failure means for "send at most once":
 * - `not_delivered`: the platform certainly did not act (connection refused, unknown host, or it answered an
 *   error status) — retrying cannot send twice;
 * - `unknown`: the request may have reached it (time-out, connection reset after sending) — retrying could send
 *   twice, so callers do not retry a send in that case.
 */
export type Delivery = 'not_delivered' | 'unknown';

export interface JsonPostResult {
  status: number;
  /** The parsed answer (undefined when it was not JSON). */
  body: any;
  text: string;
}

export class OutboundError extends Error {
  readonly kind: 'timeout' | 'network' | 'http_status' | 'bad_response';
  readonly delivery: Delivery;
  readonly status?: number;
  constructor(kind: OutboundError['kind'], message: string, delivery: Delivery, status?: number, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'OutboundError';
    this.kind = kind;
    this.delivery = delivery;
    this.status = status;
  }
}

/** Connection failures that happen before a byte of the request is sent. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export async function postJson(url: string, body: unknown, options: { headers: Record<string, string>; timeoutMs: number }): Promise<JsonPostResult> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new OutboundError('timeout', `no answer within ${options.timeoutMs} ms`, 'unknown', undefined, err);
    }
    const code = ((err as { cause?: { code?: string } })?.cause?.code ?? '') as string;
    throw new OutboundError('network', `request failed${code ? ` (${code})` : ''}`, NOT_SENT.has(code) ? 'not_delivered' : 'unknown', undefined, err);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (err) {
    throw new OutboundError('network', 'the answer could not be read', 'unknown', response.status, err);
  }
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text };
}
