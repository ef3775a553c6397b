import { removeForeignLinks } from '../linkGuard.ts';
import { fold } from './text.ts';

/**
 * What the offline model will not do, whatever the message says: follow instructions that try to change its
 * rules, reveal its instructions, hand out other people's data or put a foreign link in an answer (spec §4.1:
 * grounded, public facts only), and answer what is not about the venue. Read on the raw message (for `SYSTEM:`,
 * URLs) and on the folded one (case, diacritics: `bỏ qua quy tắc` = `bo qua quy tac`).
 */

/** Instructions aimed at the assistant itself: override, role play, prompt extraction. */
const OVERRIDE = [
  /\b(ignore|disregard|forget|override|bypass|skip)\b[^.?!]{0,40}\b(rules?|instructions?|prompts?|guidelines?|restrictions?|polic(?:y|ies)|guardrails?|filters?|directions?|above|previous|everything)\b/,
  /\b(you are now|from now on|act as|pretend (?:to be|you are)|roleplay|role play|jailbreak|developer mode|admin mode|god mode|debug mode|maintenance mode|sudo|dan mode|unrestricted mode)\b/,
  /\b(print|show|reveal|repeat|output|display|leak|dump|tell me|give me|what (?:is|are)|send me|write out)\b[^.?!]{0,30}\b(system prompt|your prompt|the prompt|your instructions|your rules|hidden instructions|initial instructions|configuration|api keys?|secret keys?|secrets|passwords?|access tokens?|env(?:ironment)? variables)\b/,
  /\bnew (?:rules?|instructions?)\b/,
  // Vietnamese (folded): bỏ qua / quên quy tắc, chế độ quản trị, in ra lời nhắc, tiết lộ hướng dẫn.
  /\b(bo qua|quen di|quen het|lo di|vuot qua)\b[^.?!]{0,30}\b(quy tac|huong dan|chi dan|lenh|quy dinh|gioi han|rang buoc|moi thu|tat ca)\b/,
  /\bche do (quan tri|admin|nha phat trien|debug|god)\b/,
  /\b(in ra|hien thi|tiet lo|cho xem|cho toi xem|doc)\b[^.?!]{0,30}\b(prompt|loi nhac|huong dan he thong|chi dan he thong|cau hinh|mat khau|khoa api)\b/,
  /\b(tu gio|ke tu bay gio)\b[^.?!]{0,20}\b(ban la|hay dong vai)\b/,
  /\b(gia vo|dong vai)\b/,
];

/** Someone else's data: guest lists, contact details, bookings, the database. */
const PRIVATE_DATA = [
  /\b(list|show|give|export|dump|send|print|tell|display|share|get)\b[^.?!]{0,40}\b(customers?|clients?|guests? list|other guests?|all (?:the )?guests|guests?(?:'|s)? (?:e ?mails?|phone|names|details|data)|reservation list|reservations list|booking list|bookings list|all (?:the )?(?:reservations|bookings)|reservations|bookings of|e ?mails?|phone numbers|personal data|database|user accounts?|staff accounts?|credit cards?)\b/,
  /\b(customers?|guests?|users?|members?)(?:'|s)? (?:e ?mails?|e ?mail addresses|phone numbers?|addresses|personal (?:data|details)|credit cards?)\b/,
  /\b(danh sach|liet ke|xuat|gui|cho xem|cho toi xem|in ra)\b[^.?!]{0,30}\b(khach hang|khach|nguoi dat|dat cho|dat ve|email|so dien thoai|tai khoan|co so du lieu)\b/,
  /\b(email|so dien thoai|thong tin|du lieu)\b (cua )?(khach hang|cac khach|nguoi khac|khach khac)\b/,
];

/** A link the guest wants put into answers (any address, the site's own included: links come from the tools). */
const LINK_REQUEST = /\b(link|url|redirect|send|include|add|insert|put|post|write|say|tell|share|recommend|direct|point|them|chen|gan|gui)\b[^?!]{0,60}(https?:\/\/|www\.|\b[a-z0-9-]+\.(?:com|net|org|io|xyz|ru|cn|info|biz|link|vn|example)\b)/;

export type Refusal = 'override' | 'privateData' | 'link' | 'socialEngineering';

/** Why a message is refused, or undefined when it isn't an attempt on the assistant's rules. */
export function refusalOf(text: string, repaired?: string, options: { privateData?: boolean } = {}): Refusal | undefined {
  const raw = text.toLowerCase();
  // The folded text, typos repaired when the caller has done it ("kahch hang" is "khach hang").
  const folded = repaired ?? fold(text);
  // `SYSTEM:` / `[admin]` / `### instruction` headers pretend to be the operator.
  if (/(^|\n|\s)(system|admin|administrator|developer|assistant|operator|root)\s*:/i.test(text) || /\[(system|admin|inst)\]|<\/?system>|###\s*(system|instruction)/i.test(text)) return 'override';
  if (OVERRIDE.some((pattern) => pattern.test(folded) || pattern.test(raw))) return 'override';
  // A guest's own message is read for other guests' data by the language data's intents (../language); a
  // document's line is held to these patterns too.
  if (options.privateData !== false && PRIVATE_DATA.some((pattern) => pattern.test(folded))) return 'privateData';
  if (LINK_REQUEST.test(raw) || LINK_REQUEST.test(folded) || (/https?:\/\/|www\./.test(raw) && /\b(duong dan|lien ket|link|url|cau tra loi|answer|reply|response)\b/.test(folded))) return 'link';
  return undefined;
}

/**
 * Text from a tool result (a knowledge document, a show's description) made safe to repeat: a line that gives the
 * assistant instructions is left out, and so is any URL that is not one of `allowed` (the site's routes), and any
 * link a browser would resolve off the site's origin (`[x](/\evil.example)`, `<a href=//evil.example>`: the link
 * guard's reading, which the answer goes through again as it streams).
 */
export function safeToQuote(text: string, allowed: ReadonlySet<string>): string {
  const origins = new Set([...allowed].flatMap((url) => {
    try {
      return [new URL(url).origin.toLowerCase()];
    } catch {
      return [];
    }
  }));
  const kept = text
    .split('\n')
    .filter((line) => !refusalOf(line))
    .join('\n');
  return removeForeignLinks(kept, origins)
    .split('\n')
    .map((line) =>
      line
        .replace(/\[([^\]]*)\]\((https?:\/\/[^)\s]+)\)/g, (whole, label: string, url: string) => (allowed.has(url) ? whole : label))
        .replace(/https?:\/\/[^\s)\]>"']+/g, (url) => (allowed.has(url.replace(/[.,;:!?]+$/, '')) ? url : ''))
        .replace(/\bwww\.[a-z0-9-]+\.[a-z.]+[^\s)]*/gi, ''),
    )
    .join('\n')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}
