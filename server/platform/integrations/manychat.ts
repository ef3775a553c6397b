import { OutboundError, postJson, type Delivery } from './httpJson.ts';

/**
 * ManyChat's public API, the one call we use (spec §4.7): `POST /fb/sending/sendContent` with
 * `Authorization: Bearer <CHAT_API_TOKEN>` and `{ subscriber_id, data }`, where `data` is a Dynamic Block v2
 * (`{ version: 'v2', content: { type?, messages: [{ type: 'text', text }] } }`). ManyChat answers
 * `{ "status": "success" }`, or `{ "status": "error", "message", "code"?, "details"? }` (with an HTTP error
 * status, or sometimes 200): both the message and ManyChat's error code are kept on the error for the log.
 *
 * ManyChat's public API has no typing-indicator call (spec §4.7 "Shape details"): this client offers none.
 */

export const CHAT_CHANNELS = ['facebook', 'messenger', 'instagram', 'whatsapp', 'telegram'] as const;
export type ChatChannel = (typeof CHAT_CHANNELS)[number];

/** ManyChat wants `content.type` for these channels' dynamic blocks; Messenger (facebook) has none. */
const CONTENT_TYPE: Partial<Record<ChatChannel, 'instagram' | 'whatsapp' | 'telegram'>> = { instagram: 'instagram', whatsapp: 'whatsapp', telegram: 'telegram' };

/** ManyChat's limit per text message (Messenger's 2,000 characters), and per block (10 messages). */
export const MAX_TEXT_LENGTH = 2000;
export const MAX_MESSAGES = 10;

export interface DynamicBlock {
  version: 'v2';
  content: { type?: 'instagram' | 'whatsapp' | 'telegram'; messages: Array<{ type: 'text'; text: string }> };
}

/** A Dynamic Block v2 holding `text` (split into messages of at most 2,000 characters, at paragraph or word breaks). */
export function dynamicBlock(channel: ChatChannel, text: string): DynamicBlock {
  const type = CONTENT_TYPE[channel];
  const messages = splitText(text, MAX_TEXT_LENGTH)
    .slice(0, MAX_MESSAGES)
    .map((part) => ({ type: 'text' as const, text: part }));
  return { version: 'v2', content: { ...(type ? { type } : {}), messages } };
}

export function splitText(text: string, max: number): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let cut = window.lastIndexOf('\n\n');
    if (cut < max / 2) cut = window.lastIndexOf('\n');
    if (cut < max / 2) cut = window.lastIndexOf(' ');
    if (cut < max / 2) cut = max;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) parts.push(rest);
  return parts.length ? parts : [''];
}

export interface ManyChatOptions {
  /** `CHAT_API_BASE_URL` (default https://api.manychat.com). */
  baseUrl: string;
  /** `CHAT_API_TOKEN`; unset → every call fails `not_configured`. */
  token: string | undefined;
  timeoutMs: number;
}

export class ManyChatError extends Error {
  readonly code: 'not_configured' | 'timeout' | 'network' | 'http_status' | 'api_error' | 'bad_response';
  /** HTTP status of ManyChat's answer. */
  readonly status?: number;
  /** ManyChat's own error code (`code` of its error body), when it sent one. */
  readonly apiCode?: string | number;
  readonly delivery: Delivery;
  /** True when a retry may help and cannot send twice (ManyChat certainly did not send; 429 or 5xx or no connection). */
  readonly retryable: boolean;
  constructor(code: ManyChatError['code'], message: string, extra: { status?: number; apiCode?: string | number; delivery: Delivery; retryable: boolean; cause?: unknown }) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'ManyChatError';
    this.code = code;
    this.status = extra.status;
    this.apiCode = extra.apiCode;
    this.delivery = extra.delivery;
    this.retryable = extra.retryable;
  }
}

export interface ManyChatClient {
  readonly isConfigured: boolean;
  sendContent(subscriberId: string, data: DynamicBlock): Promise<void>;
}

export function createManyChatClient(options: ManyChatOptions): ManyChatClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    isConfigured: Boolean(options.token),
    async sendContent(subscriberId, data) {
      if (!options.token) {
        throw new ManyChatError('not_configured', 'CHAT_API_TOKEN is unset', { delivery: 'not_delivered', retryable: false });
      }
      if (!/^\d{1,20}$/.test(subscriberId)) {
        throw new ManyChatError('bad_response', 'the subscriber id is not numeric', { delivery: 'not_delivered', retryable: false });
      }
      let result;
      try {
        result = await postJson(
          `${base}/fb/sending/sendContent`,
          // ManyChat takes the id as a number (a string past 2^53, which no id reaches today).
          { subscriber_id: Number.isSafeInteger(Number(subscriberId)) ? Number(subscriberId) : subscriberId, data },
          { headers: { authorization: `Bearer ${options.token}` }, timeoutMs: options.timeoutMs },
        );
      } catch (err) {
        const e = err as OutboundError;
        throw new ManyChatError(e.kind === 'timeout' ? 'timeout' : 'network', e.message, { delivery: e.delivery, retryable: e.delivery === 'not_delivered', cause: err });
      }
      const body = result.body as { status?: string; message?: string; code?: string | number } | undefined;
      if (result.status >= 200 && result.status < 300 && body?.status === 'success') return;
      const retryable = result.status === 429 || result.status >= 500;
      const apiCode = body?.code;
      const message = body?.message ?? (result.text.slice(0, 200) || `HTTP ${result.status}`);
      if (result.status >= 200 && result.status < 300 && body?.status !== 'error') {
        throw new ManyChatError('bad_response', `unexpected answer: ${message}`, { status: result.status, delivery: 'unknown', retryable: false });
      }
      throw new ManyChatError(body?.status === 'error' ? 'api_error' : 'http_status', message, {
        status: result.status,
        apiCode,
        delivery: 'not_delivered',
        retryable,
      });
    },
  };
}
