import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { createManyChatClient, dynamicBlock, ManyChatError, type ChatChannel, type ManyChatClient } from '../../platform/integrations/manychat.ts';
import type { TurnChannel } from './turns.ts';

/**
 * The chat-platform webhook's reading of a ManyChat External Request body (spec §4.7): the message text, the
 * subscriber id and the guest's locale, from the first field that has them.
 */
type Body = Record<string, unknown> & { contact?: Record<string, unknown> | null };

const TEXT_FIELDS = ['last_input_text', 'text', 'message', 'query'] as const;
const ID_FIELDS = ['subscriber_id', 'id', 'user_id'] as const;

export function messageText(body: Body): string | undefined {
  const candidates = [...TEXT_FIELDS.map((field) => body[field]), body.contact?.last_input_text];
  for (const value of candidates) if (typeof value === 'string' && value.trim()) return value.trim();
  return undefined;
}

const numericId = (value: unknown): string | undefined => {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === 'string' && /^\d{1,20}$/.test(value.trim()) && !/^0+$/.test(value.trim())) return value.trim();
  return undefined;
};

export function subscriberId(body: Body): string | undefined {
  const candidates = [...ID_FIELDS.map((field) => body[field]), body.contact?.id, body.contact?.user_id];
  for (const value of candidates) {
    const id = numericId(value);
    if (id) return id;
  }
  return undefined;
}

/** `vi_VN`, `vi-VN`, `Vietnamese`, `vi` → `vi` when the site has it; otherwise the site's default locale. */
export function guestLocale(body: Body, siteLocales: string[]): string {
  const names: Record<string, string> = { english: 'en', vietnamese: 'vi', 'tiếng việt': 'vi' };
  const candidates = [body.locale, body.language, body.contact?.locale, body.contact?.language];
  for (const value of candidates) {
    if (typeof value !== 'string' || !value.trim()) continue;
    const raw = value.trim().toLowerCase();
    const tag = names[raw] ?? raw.split(/[-_]/)[0];
    if (siteLocales.includes(tag)) return tag;
  }
  return siteLocales[0];
}

/** The immediate acknowledgement, per site locale (a locale without one gets the English text). */
export const ACKNOWLEDGEMENTS: Record<string, string> = {
  en: 'Thanks for your message! Give me a moment while I look that up for you.',
  vi: 'Cảm ơn bạn đã nhắn tin! Vui lòng chờ trong giây lát, mình đang tìm thông tin cho bạn.',
};

export const acknowledgement = (locale: string) => ACKNOWLEDGEMENTS[locale] ?? ACKNOWLEDGEMENTS.en;

declare module '../../platform/context.ts' {
  interface AppContext {
    /** The ManyChat client (CHAT_API_BASE_URL, CHAT_API_TOKEN, CHAT_API_TIMEOUT_MS), the chatPlatform module's. */
    manyChat: ManyChatClient;
  }
}

/** The module's per-app services (its record's `services`). */
export function chatPlatformServices(platform: PlatformContext): Pick<AppContext, 'manyChat'> {
  return { manyChat: createManyChatClient(platform.config.chatApi) };
}

/** The app's ManyChat client. */
export function manyChatFor(app: AppContext): ManyChatClient {
  return app.manyChat;
}

/** ManyChat's side of a background turn: send-content only; no typing action (its public API has none). */
export function manyChatChannel(client: ManyChatClient): TurnChannel {
  return {
    send: (turn, text) => client.sendContent(turn.recipient, dynamicBlock(turn.channel as ChatChannel, text)),
    typing: () => undefined,
    describe(err) {
      if (err instanceof ManyChatError) {
        return {
          code: `manychat_${err.code}`,
          detail: err.message,
          retryable: err.retryable,
          fields: { manychatCode: err.apiCode, httpStatus: err.status, delivery: err.delivery },
        };
      }
      return { code: 'send_error', detail: (err as Error)?.message ?? 'send failed', retryable: false, fields: {} };
    },
  };
}
