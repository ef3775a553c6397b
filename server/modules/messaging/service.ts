import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { createWhatsAppClient, WhatsAppError, type WhatsAppClient } from '../../platform/integrations/whatsapp.ts';
import type { TurnChannel } from '../chatPlatform/index.ts';

/** `X-Hub-Signature-256: sha256=<hex>` over the raw body under the app secret, compared in constant time. */
export function validSignature(rawBody: Buffer, header: string, appSecret: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const presented = Buffer.from(match[1], 'hex');
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

export interface InboundText {
  from: string;
  id: string;
  text: string;
}

/** The text messages of a notification, and how many other entries (media, reactions, statuses) it had. */
export function inboundTexts(body: any): { texts: InboundText[]; ignored: number } {
  const texts: InboundText[] = [];
  let ignored = 0;
  for (const entry of Array.isArray(body?.entry) ? body.entry : []) {
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const value = change?.value ?? {};
      ignored += Array.isArray(value.statuses) ? value.statuses.length : 0;
      for (const message of Array.isArray(value.messages) ? value.messages : []) {
        const text = message?.type === 'text' && typeof message?.text?.body === 'string' ? message.text.body.trim() : '';
        if (text && typeof message.from === 'string' && /^\d{5,20}$/.test(message.from) && typeof message.id === 'string' && message.id) {
          texts.push({ from: message.from, id: message.id, text });
        } else {
          ignored++;
        }
      }
    }
  }
  return { texts, ignored };
}

/** WhatsApp tells us nothing of the guest's language: Vietnamese letters → `vi` (when the site has it), else the default. */
export function localeOfText(text: string, siteLocales: string[]): string {
  const vietnamese = /[ăâđêôơưàảãáạằẳẵắặầẩẫấậèẻẽéẹềểễếệìỉĩíịòỏõóọồổỗốộờởỡớợùủũúụừửữứựỳỷỹýỵ]/i;
  if (siteLocales.includes('vi') && vietnamese.test(text)) return 'vi';
  return siteLocales[0];
}

declare module '../../platform/context.ts' {
  interface AppContext {
    /** The WhatsApp Cloud API client (MESSAGING_*), the messaging module's. */
    whatsApp: WhatsAppClient;
  }
}

/** The module's per-app services (its record's `services`). */
export function messagingServices(platform: PlatformContext): Pick<AppContext, 'whatsApp'> {
  const m = platform.config.messaging;
  return { whatsApp: createWhatsAppClient({ baseUrl: m.graphApiBaseUrl, phoneNumberId: m.phoneNumberId, accessToken: m.accessToken, timeoutMs: m.timeoutMs }) };
}

export function whatsAppFor(app: AppContext): WhatsAppClient {
  return app.whatsApp;
}

/**
 * WhatsApp's side of a background turn: the answer as a text message in reply to the guest's, and the typing
 * indicator on their message. The Cloud API has no typing-off call (the indicator ends when we answer, or after
 * 25 s), so "off" sends nothing.
 */
export function whatsAppChannel(client: WhatsAppClient): TurnChannel {
  return {
    async send(turn, text) {
      await client.sendText(turn.recipient, text, { replyTo: turn.externalMessageId ?? undefined });
    },
    typing: (turn) =>
      turn.externalMessageId
        ? {
            typing: async (on) => {
              if (on) await client.typing(turn.externalMessageId!);
            },
          }
        : undefined,
    describe(err) {
      if (err instanceof WhatsAppError) {
        return {
          code: `whatsapp_${err.code}`,
          detail: err.message,
          retryable: err.retryable,
          fields: { graphCode: err.graph?.code, graphSubcode: err.graph?.error_subcode, fbtraceId: err.graph?.fbtrace_id, httpStatus: err.status, delivery: err.delivery },
        };
      }
      return { code: 'send_error', detail: (err as Error)?.message ?? 'send failed', retryable: false, fields: {} };
    },
  };
}
