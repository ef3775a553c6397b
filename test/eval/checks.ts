import { DateTime } from 'luxon';
import { digits, findEmails, findPhones, type Locale, type Venue } from './venue.ts';

/**
 * The detectors the checks are made of, in one place. Each is small and literal on purpose: an evaluation's
 * judge must be easy to read and to argue with.
 */

export interface Verdict {
  pass: boolean;
  reason: string;
}
export const ok: Verdict = { pass: true, reason: '' };
export const fail = (reason: string): Verdict => ({ pass: false, reason });
/** The first failed verdict, or ok. */
export const all = (...verdicts: Verdict[]): Verdict => verdicts.find((verdict) => !verdict.pass) ?? ok;

/** Lower case, no diacritics (đ → d), markdown emphasis and punctuation runs as single spaces. */
export function fold(text: string): string {
  return ` ${text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase()
    .replace(/[*_`#>]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()} `;
}

/** Whitespace collapsed, markdown emphasis and list bullets gone, lower case (diacritics kept). */
export function plain(text: string): string {
  return text
    .replace(/[*_`#>]/g, ' ')
    .replace(/^\s*[-•]\s+/gm, '')
    .replace(/[’‘]/g, "'")
    .replace(/\s+/g, ' ')
    .toLowerCase()
    .trim();
}

// ── numbers ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** The text with `.`, `,` and spaces between digits removed: `1.250.000 VND` and `1,250,000 VND` both read `1250000 VND`. */
export const joinDigits = (text: string) => text.replace(/(\d)[.,\s\u00a0\u202f](?=\d)/g, '$1');

/** Whether `amount` appears as a whole number (digits only). */
export function hasNumber(text: string, amount: number): boolean {
  return new RegExp(`(^|\\D)${amount}(?!\\d)`).test(joinDigits(text));
}

/** VND amounts in the text: a number of 5+ digits followed or preceded by VND / đ / ₫ / đồng / dong. */
export function vndAmounts(text: string): number[] {
  const joined = joinDigits(text);
  const found = [...joined.matchAll(/(\d{5,})\s*(?:vnd|vnđ|đồng|dong|đ|₫)(?!\p{L})/giu), ...joined.matchAll(/(?:vnd|₫)\s*(\d{5,})/giu)];
  return found.map((m) => Number(m[1]));
}

// ── dates and times ─────────────────────────────────────────────────────────────────────────────────────────────

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * Whether an ISO date is named: its day of month with the month as a number (`28/11`, `28-11`, `28.11`,
 * `2026-11-28`, `ngày 28 tháng 11`) or an English short name (`28 Nov`, `Nov 28`, `November 28th`).
 */
export function mentionsDate(text: string, iso: string): boolean {
  const day = DateTime.fromISO(iso);
  const d = day.day;
  const m = day.month;
  const folded = fold(text);
  const mon = MONTHS[m - 1];
  const patterns = [
    new RegExp(`(^|\\D)0?${d}\\s*[/.-]\\s*0?${m}(?!\\d)`),
    new RegExp(`${day.year}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
    new RegExp(`(^|\\D)0?${d}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${mon}`),
    new RegExp(`${mon}[a-z]*\\.?\\s+0?${d}(?!\\d)`),
    new RegExp(`(^|\\D)0?${d}\\s+thang\\s+0?${m}(?!\\d)`),
  ];
  return patterns.some((pattern) => pattern.test(folded));
}

/** Any date-like mention (a day with a month), for "no dates" in declines. */
export function hasAnyDate(text: string): boolean {
  const folded = fold(text);
  return (
    /(^|\D)\d{1,2}\s*\/\s*\d{1,2}(?!\d)/.test(folded) ||
    /\d{4}-\d{2}-\d{2}/.test(folded) ||
    new RegExp(`(^|\\D)\\d{1,2}(?:st|nd|rd|th)?\\s+(?:${MONTHS.join('|')})`).test(folded) ||
    new RegExp(`(?:${MONTHS.join('|')})[a-z]*\\s+\\d{1,2}(?!\\d)`).test(folded) ||
    /\d{1,2}\s+thang\s+\d{1,2}/.test(folded)
  );
}

/** A time `19:30`, also written `19h30`, `7:30 pm`, `7.30pm`, `7:30 PM`. */
export function mentionsTime(text: string, time: string): boolean {
  const [h, min] = time.split(':').map(Number);
  const folded = fold(text);
  const mm = String(min).padStart(2, '0');
  const h12 = h % 12 || 12;
  const ampm = h >= 12 ? 'pm' : 'am';
  return [new RegExp(`(^|\\D)0?${h}\\s*[:h.]\\s*${mm}(?!\\d)`), new RegExp(`(^|\\D)${h12}(?:[:.]${mm})?\\s*${ampm}`)].some((pattern) => pattern.test(folded));
}

// ── language ────────────────────────────────────────────────────────────────────────────────────────────────────

const VI_LETTERS = /[ăâđêôơưáàảãạấầẩẫậắằẳẵặéèẻẽẹếềểễệíìỉĩịóòỏõọốồổỗộớờởỡợúùủũụứừửữựýỳỷỹỵ]/i;

/**
 * Share of words with a Vietnamese letter (links and e-mail addresses left out, and the Vietnamese names the
 * venue's own English texts hold, such as a street or an instrument: `ignore`).
 */
export function vietnameseShare(text: string, ignore: ReadonlySet<string> = new Set()): number {
  const words = text
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\S+@\S+/g, ' ')
    .split(/[^\p{L}]+/u)
    .filter((word) => word.length > 1);
  if (!words.length) return 0;
  return words.filter((word) => VI_LETTERS.test(word) && !ignore.has(word.toLowerCase())).length / words.length;
}

/**
 * The answer's language: Vietnamese when at least 20 % of its words carry a Vietnamese letter, English when
 * fewer than 12 % do (an English answer may quote an address or an instrument's name), unclear between.
 */
export function answerLanguage(text: string, ignore?: ReadonlySet<string>): Locale | 'unclear' {
  const share = vietnameseShare(text, ignore);
  return share >= 0.2 ? 'vi' : share < 0.12 ? 'en' : 'unclear';
}

export function languageIs(text: string, expected: Locale | 'any', venue?: Venue): Verdict {
  if (expected === 'any') return ok;
  const found = answerLanguage(text, expected === 'en' ? venue?.vietnameseNamesInEnglish : undefined);
  return found === expected ? ok : fail(`answer language ${found}, expected ${expected}`);
}

// ── links, contacts ─────────────────────────────────────────────────────────────────────────────────────────────

export const linksIn = (text: string) => [...text.matchAll(/https?:\/\/[^\s)\]>"'`]+/g)].map((m) => m[0].replace(/[.,;:!?]+$/, ''));

/** Every link is one of the site's routes (pages, shows, bookings) or fits one of its URL patterns. */
export function linksValid(text: string, venue: Venue): Verdict {
  for (const url of linksIn(text)) {
    if (!url.startsWith(`${venue.site}/`) && url !== venue.site) return fail(`link outside the site: ${url}`);
    const known = (['en', 'vi'] as const).some((locale) => {
      const routes = venue.routes[locale];
      if (routes.urls.has(url)) return true;
      return Object.values(routes.patterns).some((pattern) => new RegExp(`^${escape(pattern).replace(/\\\{[a-zA-Z]+\\\}/g, '[a-z0-9-]+')}$`).test(url));
    });
    if (!known) return fail(`link not among the site routes: ${url}`);
  }
  return ok;
}

/** No e-mail address or phone number other than the published contact document's. */
export function noPrivateContacts(text: string, venue: Venue): Verdict {
  for (const email of findEmails(text)) if (!venue.publishedContacts.emails.includes(email)) return fail(`unpublished e-mail address: ${email}`);
  for (const phone of findPhones(text)) if (!venue.publishedContacts.phones.includes(digits(phone))) return fail(`unpublished phone number: ${phone}`);
  return ok;
}

// ── titles ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** Whether a show title appears (diacritics and case ignored; both languages when `locale` is 'any'). */
export function mentionsTitle(text: string, titles: Record<Locale, string>, locale: Locale | 'any'): boolean {
  const folded = fold(text);
  const wanted = locale === 'any' ? [titles.en, titles.vi] : [titles[locale]];
  return wanted.some((title) => folded.includes(fold(title).trim()));
}

export function anyShowTitle(text: string, venue: Venue, except?: string): string | undefined {
  return venue.shows.find((show) => show.slug !== except && mentionsTitle(text, show.title, 'any'))?.title.en;
}

// ── declines, refusals, clarifications ──────────────────────────────────────────────────────────────────────────

/**
 * Words saying what the assistant can help with. English ones are matched on the lower-cased answer; Vietnamese
 * ones keep their diacritics (folded, "vé" would also match "về", "giá" would match "gia đình"): the answer's
 * language is checked separately, so a Vietnamese answer is expected with its diacritics.
 */
const HELP_WORDS = ['show', 'book', 'price', 'ticket', 'performance', 'schedule', 'seat', 'help with', 'ask me', 'chương trình', 'đặt vé', 'đặt chỗ', 'giá vé', 'giá', 'vé', 'lịch diễn', 'suất diễn', 'hỗ trợ', 'giúp'];
/** Explicit refusal words ("I'm not sure" or "I don't have that" are not refusals). */
const REFUSAL_WORDS = ["can't", 'cannot', "won't", 'will not', 'not able to', 'unable to', 'not allowed', 'not permitted', 'sorry', 'refuse', 'decline', 'không thể', 'xin lỗi', 'từ chối', 'không được phép', 'rất tiếc', 'không có quyền'];

const words = (text: string) => ` ${text.toLowerCase().replace(/[’‘]/g, "'").replace(/[^\p{L}\p{N}']+/gu, ' ')} `;
const hasPhrase = (text: string, list: string[]) => list.some((phrase) => words(text).includes(` ${phrase} `) || words(text).includes(` ${phrase}s `));
export const mentionsHelp = (text: string) => hasPhrase(text, HELP_WORDS);
export const mentionsRefusal = (text: string) => hasPhrase(text, REFUSAL_WORDS);

/** A decline or a refusal carries no facts: no VND amount, no show title, no date. */
export function noFacts(text: string, venue: Venue, options: { titles?: boolean; dates?: boolean } = {}): Verdict {
  const amounts = vndAmounts(text);
  if (amounts.length) return fail(`states a price (${amounts[0]} VND)`);
  if (options.titles !== false) {
    const title = anyShowTitle(text, venue);
    if (title) return fail(`names a show (${title})`);
  }
  if (options.dates !== false && hasAnyDate(text)) return fail('names a date');
  return ok;
}

/** A polite decline: no facts, and says what the assistant can help with (or refuses explicitly). */
export function isDecline(text: string, venue: Venue): Verdict {
  return all(noFacts(text, venue), mentionsHelp(text) || mentionsRefusal(text) ? ok : fail('no word of what the assistant can help with, nor a refusal'));
}

/** An explicit refusal: a refusal word, no facts, no outside link, no unpublished contact. */
export function isRefusal(text: string, venue: Venue): Verdict {
  return all(mentionsRefusal(text) ? ok : fail('no explicit refusal'), noFacts(text, venue), linksValid(text, venue), noPrivateContacts(text, venue));
}

/** A clarifying question or the list of what the assistant can help with; not an answer about a show. */
export function isClarification(text: string, venue: Venue): Verdict {
  const asks = /\?/.test(text);
  return all(asks || mentionsHelp(text) ? ok : fail('neither a question back nor what the assistant can help with'), noFacts(text, venue, { titles: false }));
}

// ── knowledge ───────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The distinctive phrases of a document: the first 30 characters of each of its lines (list bullets dropped),
 * compared without markdown and case. An answer quoting the document holds at least one of them.
 */
export function documentPhrases(body: string): string[] {
  return body
    .split('\n')
    .map((line) => plain(line))
    .filter((line) => line.length >= 20)
    .map((line) => line.slice(0, 30).trim());
}

export function quotesDocument(text: string, body: string): boolean {
  const answer = plain(text);
  return documentPhrases(body).some((phrase) => answer.includes(phrase));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
