import { OutboundError, postJson, type Delivery } from './httpJson.ts';

/**
 * Meta's WhatsApp Cloud API (Graph API), the calls the messaging webhook and the template send need, all on
 * `POST <GRAPH_API_BASE_URL>/<phone-number-id>/messages` with `Authorization: Bearer <access token>`:
 * - a text message (`type: text`, at most 4,096 characters);
 * - the typing indicator (`status: read` on the guest's message with `typing_indicator: { type: text }`): it
 *   marks the message read and shows "typing…" until we answer or 25 seconds pass. The Cloud API has no
 *   "typing off" call; the indicator ends by itself, so `typing(false)` sends nothing;
 * - a template message (`type: template`, name, language code, components).
 * A Graph error answers `{ error: { message, type, code, error_subcode?, fbtrace_id } }`: kept on the error.
 */

export interface WhatsAppOptions {
  /** `GRAPH_API_BASE_URL`, with the API version (`https://graph.facebook.com/v23.0`). */
  baseUrl: string;
  phoneNumberId: string | undefined;
  accessToken: string | undefined;
  timeoutMs: number;
}

export const WHATSAPP_MAX_TEXT = 4096;

/** Graph error codes Meta documents as temporary (rate limits, service unavailable). */
const TEMPORARY_CODES = new Set([1, 2, 4, 17, 341, 80007, 130429, 131000, 131016]);

export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_title?: string;
  error_user_msg?: string;
  fbtrace_id?: string;
  error_data?: unknown;
}

export class WhatsAppError extends Error {
  readonly code: 'not_configured' | 'timeout' | 'network' | 'api_error' | 'bad_response';
  readonly status?: number;
  /** Meta's error object, as it answered it. */
  readonly graph?: GraphErrorBody;
  readonly delivery: Delivery;
  readonly retryable: boolean;
  constructor(code: WhatsAppError['code'], message: string, extra: { status?: number; graph?: GraphErrorBody; delivery: Delivery; retryable: boolean; cause?: unknown }) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'WhatsAppError';
    this.code = code;
    this.status = extra.status;
    this.graph = extra.graph;
    this.delivery = extra.delivery;
    this.retryable = extra.retryable;
  }
}

export interface TemplateMessage {
  name: string;
  language: string;
  components?: unknown[];
}

export interface WhatsAppClient {
  readonly isConfigured: boolean;
  /** Sends a text; answers Meta's message id. */
  sendText(to: string, text: string, options?: { replyTo?: string }): Promise<{ messageId: string | undefined }>;
  /** Marks `messageId` read and shows the typing indicator. */
  typing(messageId: string): Promise<void>;
  sendTemplate(to: string, template: TemplateMessage): Promise<{ messageId: string | undefined; waId: string | undefined }>;
}

export function createWhatsAppClient(options: WhatsAppOptions): WhatsAppClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  async function post(payload: Record<string, unknown>): Promise<any> {
    if (!options.phoneNumberId || !options.accessToken) {
      throw new WhatsAppError('not_configured', 'MESSAGING_PHONE_NUMBER_ID and MESSAGING_ACCESS_TOKEN are required', { delivery: 'not_delivered', retryable: false });
    }
    let result;
    try {
      result = await postJson(
        `${base}/${encodeURIComponent(options.phoneNumberId)}/messages`,
        { messaging_product: 'whatsapp', ...payload },
        { headers: { authorization: `Bearer ${options.accessToken}` }, timeoutMs: options.timeoutMs },
      );
    } catch (err) {
      const e = err as OutboundError;
      throw new WhatsAppError(e.kind === 'timeout' ? 'timeout' : 'network', e.message, { delivery: e.delivery, retryable: e.delivery === 'not_delivered', cause: err });
    }
    if (result.status >= 200 && result.status < 300 && result.body && !result.body.error) return result.body;
    const graph = result.body?.error as GraphErrorBody | undefined;
    if (!graph) {
      throw new WhatsAppError('bad_response', `HTTP ${result.status}: ${result.text.slice(0, 200)}`, {
        status: result.status,
        delivery: result.status >= 400 ? 'not_delivered' : 'unknown',
        retryable: result.status === 429 || result.status >= 500,
      });
    }
    const retryable = result.status === 429 || result.status >= 500 || TEMPORARY_CODES.has(graph.code ?? -1);
    throw new WhatsAppError('api_error', graph.message ?? `HTTP ${result.status}`, { status: result.status, graph, delivery: 'not_delivered', retryable });
  }
  return {
    isConfigured: Boolean(options.phoneNumberId && options.accessToken),
    async sendText(to, text, extra = {}) {
      const body = await post({
        recipient_type: 'individual',
        to,
        type: 'text',
        ...(extra.replyTo ? { context: { message_id: extra.replyTo } } : {}),
        text: { preview_url: true, body: text.slice(0, WHATSAPP_MAX_TEXT) },
      });
      return { messageId: body?.messages?.[0]?.id };
    },
    async typing(messageId) {
      await post({ status: 'read', message_id: messageId, typing_indicator: { type: 'text' } });
    },
    async sendTemplate(to, template) {
      const body = await post({
        recipient_type: 'individual',
        to,
        type: 'template',
        template: { name: template.name, language: { code: template.language }, ...(template.components?.length ? { components: template.components } : {}) },
      });
      return { messageId: body?.messages?.[0]?.id, waId: body?.contacts?.[0]?.wa_id };
    },
  };
}
