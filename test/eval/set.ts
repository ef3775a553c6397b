import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';

/**
 * A written question set (issue 35 §6 "Measured honestly"): questions as data in `test/eval/sets/<name>/*.yaml`,
 * each with its expectation declared by meaning — a show's slug, an offer's code, a knowledge topic, a relative
 * date, a party — never by the answer's text. The facts are resolved at run time from the venue through the
 * assistant-safe routes (./expect.ts), so the set outlives a price or a schedule change. The format is documented
 * in test/eval/sets/README.md; `_set.yaml` is the set's manifest (its fixtures), every other `*.yaml` file holds
 * the questions of one category.
 */

export const SETS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sets');

export const SET_LANGUAGES = ['en', 'vi', 'vi-ascii', 'mixed'] as const;
export type SetLanguage = (typeof SET_LANGUAGES)[number];

export const SET_CATEGORIES = [
  'whatsOn',
  'schedule',
  'availability',
  'prices',
  'partyTotal',
  'showDetails',
  'howToBook',
  'knowledge',
  'limits',
  'multiTurn',
  'mixedScope',
  'outOfScope',
  'injection',
  'socialEngineering',
  'ownBooking',
  'greeting',
] as const;
export type SetCategory = (typeof SET_CATEGORIES)[number];

/** The subjects a guest asks about that the venue does not answer: each is declined in one line. */
export const DECLINE_DOMAINS = ['weather', 'sport', 'news', 'homework', 'health', 'otherBusiness', 'restaurant', 'travel', 'finance', 'general'] as const;
export type DeclineDomain = (typeof DECLINE_DOMAINS)[number];

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/**
 * A date as the guest means it, resolved against the run's clock in the venue's time zone (./expect.ts):
 * `today`, `tonight` (today from 17:00), `tomorrow`, `day-after-tomorrow`, `+N` (N days from today), a weekday
 * (`saturday`: the next one, today included), `next-week:<weekday>` (that day of next Monday-to-Sunday week), each
 * of those with `-evening` (from 17:00: "tomorrow night", "tối thứ 7"), and the ranges `this-weekend` (Saturday and
 * Sunday; only Sunday on a Sunday), `this-week` (today to Sunday) and `next-week`.
 */
export const DATE_REF = new RegExp(`^(tonight|this-weekend|this-week|next-week|(today|tomorrow|day-after-tomorrow|\\+\\d{1,2}|(next-week:)?(${WEEKDAYS.join('|')}))(-evening)?)$`);
const DateRef = z.string().regex(DATE_REF, 'a date reference (today, tonight, tomorrow, day-after-tomorrow, +N, a weekday, next-week:<weekday>, any of those with -evening, this-weekend, this-week, next-week)');
export type DateRef = z.infer<typeof DateRef>;

/** A show by its public slug (as in its page's address), or `soldOut`: the show of the performance the set-up sold out. */
const ShowRef = z.union([z.literal('soldOut'), z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a show slug')]);
/** An offer by its code (as the public booking options name it). */
const OfferRef = z.string().regex(/^[A-Z0-9][A-Z0-9_-]{1,39}$/, 'an offer code');
/** A knowledge document by its topic. */
const Topic = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a knowledge topic');

/** A party: a number of guests, or adults and children (a count, or their ages). */
const Party = z.union([
  z.number().int().min(1).max(500),
  z
    .object({
      adults: z.number().int().min(0).max(500),
      children: z.union([z.number().int().min(0).max(100), z.array(z.number().int().min(0).max(17)).max(100)]).optional(),
    })
    .strict(),
]);
export type Party = z.infer<typeof Party>;

export const guestsOf = (party: Party): number => (typeof party === 'number' ? party : party.adults + (typeof party.children === 'number' ? party.children : (party.children?.length ?? 0)));

/**
 * A performance, by meaning: `soldOut` (the one the set-up sold out), `{ show, on, nth }` (the nth performance —
 * 0 the first, -1 the last — of a show, or of any show, on a date; without nth, as a link: any of them), `{ show, next: true }` (the show's next
 * performance), `{ after, skip }` (the same show's next performance after another one).
 */
export type EventRef = 'soldOut' | { show?: string; on: DateRef; nth?: number } | { show: string; next: true } | { after: EventRef; skip?: number };
const EventRef: z.ZodType<EventRef> = z.lazy(() =>
  z.union([
    z.literal('soldOut'),
    z.object({ show: ShowRef.optional(), on: DateRef, nth: z.number().int().min(-5).max(5).optional() }).strict(),
    z.object({ show: ShowRef, next: z.literal(true) }).strict(),
    z.object({ after: EventRef, skip: z.number().int().min(0).max(5).optional() }).strict(),
  ]),
);

const one = <T extends z.ZodTypeAny>(schema: T) => z.union([schema, z.array(schema).min(1)]);

/**
 * A link the answer gives: the inquiry or waitlist page; `shows` (the shows page, a show's page or a booking page:
 * somewhere to book); a performance's booking page; a show's page; `bookShow` (the show's page or one of its booking pages).
 */
const LinkRef = z.union([
  z.enum(['inquiries', 'waitlist', 'shows']),
  z.object({ booking: EventRef }).strict(),
  z.object({ show: ShowRef }).strict(),
  z.object({ bookShow: ShowRef }).strict(),
]);
const Forbidden = z.union([
  z.enum(['bookingLink', 'prices', 'dates']),
  z.object({ bookingLinkOf: ShowRef }).strict(),
  z.object({ titles: z.array(ShowRef).min(1) }).strict(),
]);

export const DETAILS = ['title', 'summary', 'duration', 'doors', 'age', 'includes', 'showLink'] as const;

/** What one answer must hold. Every key present is a claim; all must hold (./expect.ts grades them). */
export const Expectation = z
  .object({
    // ── in-scope answers: facts (the factual score) ──
    /** The performances on a date or over a range (of one show): each title and time, and the date over a range. */
    shows: z.object({ on: DateRef, show: ShowRef.optional(), detail: z.enum(['full', 'titles']).optional() }).strict().optional(),
    /** A show's performance time(s) over the coming week (each distinct start time). */
    times: one(ShowRef).optional(),
    /** A show's next performance(s) (after another one, or from a date): date and time. */
    next: z.object({ show: ShowRef, after: EventRef.optional(), from: DateRef.optional(), count: z.number().int().min(1).max(5).optional() }).strict().optional(),
    /** Whether a performance (or a date's performances, of a show) can take the party, as the availability route says. */
    availability: z
      .object({ event: EventRef.optional(), on: DateRef.optional(), show: ShowRef.optional(), party: Party.optional() })
      .strict()
      .refine((value) => Boolean(value.event) !== Boolean(value.on), 'availability takes either event or on')
      .optional(),
    /** The price per guest (service charge and VAT included) of an offer, of each / any offer of a show, or its price-from. */
    price: z
      .object({ offer: OfferRef.optional(), show: ShowRef.optional(), which: z.enum(['each', 'any', 'from']).optional() })
      .strict()
      .refine((value) => Boolean(value.offer || value.show), 'price names an offer or a show')
      .optional(),
    /** A party's total as the booking would charge it (everyone counted, children included). */
    total: z
      .object({ offer: OfferRef.optional(), show: ShowRef.optional(), event: EventRef.optional(), party: Party, which: z.enum(['each', 'any']).optional() })
      .strict()
      .refine((value) => Boolean(value.offer || value.show), 'total names an offer or a show')
      .optional(),
    /** The cheapest / dearest option per guest, of the venue or of one show: its price and its show. */
    cheapest: z.object({ show: ShowRef.optional() }).strict().optional(),
    dearest: z.object({ show: ShowRef.optional() }).strict().optional(),
    /** A show's details: its title, what it is (its summary), duration, doors, minimum age, what an offer includes, its page. */
    details: z.object({ show: ShowRef, offer: OfferRef.optional(), say: z.array(z.enum(DETAILS)).min(1) }).strict().optional(),
    /** Knowledge documents the answer quotes (`anyOf`: one of them, where two documents say the same). */
    document: one(z.union([Topic, z.object({ anyOf: z.array(Topic).min(2) }).strict()])).optional(),
    /** An offer's guest limit, said when a party crosses it. */
    limit: one(z.object({ offer: OfferRef, bound: z.enum(['min', 'max']) }).strict()).optional(),
    /** A show's age rule (its minimum age, from the venue's children document). */
    age: one(ShowRef).optional(),
    /** Links the answer must give. */
    link: one(LinkRef).optional(),
    /** What the answer must not hold. */
    not: z.array(Forbidden).min(1).optional(),
    // ── declining and refusing (the declining score) ──
    /** The out-of-scope part(s), declined; alone, the whole answer is a decline with no venue facts. */
    decline: one(z.enum(DECLINE_DOMAINS)).optional(),
    /** An attempt on the assistant's rules or on another guest's data: an explicit refusal, nothing leaked. */
    refuse: z.enum(['injection', 'socialEngineering']).optional(),
    /** A question about the guest's own booking: the assistant sees none, says where the details are, confirms nothing. */
    ownBooking: z.literal(true).optional(),
    // ── conversation ──
    greet: z.enum(['hello', 'bye', 'thanks']).optional(),
  })
  .strict()
  .refine((value) => Object.keys(value).some((key) => key !== 'not'), 'an expectation holds at least one claim');
export type Expectation = z.infer<typeof Expectation>;

export const FACT_CLAIMS = ['shows', 'times', 'next', 'availability', 'price', 'total', 'cheapest', 'dearest', 'details', 'document', 'limit', 'age', 'link'] as const;
export const DECLINE_CLAIMS = ['decline', 'refuse', 'ownBooking'] as const;

/**
 * A message, with placeholders for what only the run knows: `{<ref>|<format>}` where ref is a date reference or
 * `soldOut`, and format one of PLACEHOLDER_FORMATS (./expect.ts renders them).
 */
export const PLACEHOLDER = /\{([a-zA-Z0-9:+-]+)\|([a-z0-9-]+)\}/g;
export const PLACEHOLDER_FORMATS = ['dm', 'ddmm', 'd-mon', 'mon-d', 'vi-date', 'vi-ascii-date', 'weekday-en', 'weekday-vi', 'title-en', 'title-vi', 'time', 'time-12'] as const;

const Text = z
  .string()
  .min(1)
  .max(1000)
  .superRefine((text, ctx) => {
    for (const match of text.matchAll(PLACEHOLDER)) {
      const [, ref, format] = match;
      if (ref !== 'soldOut' && !DATE_REF.test(ref)) ctx.addIssue({ code: 'custom', message: `placeholder ${match[0]}: ${ref} is neither soldOut nor a date reference` });
      if (!(PLACEHOLDER_FORMATS as readonly string[]).includes(format)) ctx.addIssue({ code: 'custom', message: `placeholder ${match[0]}: unknown format ${format}` });
      if ((format.startsWith('title') || format.startsWith('time')) && ref !== 'soldOut') ctx.addIssue({ code: 'custom', message: `placeholder ${match[0]}: a title or a time is only known of soldOut` });
    }
    if (/\{[^}]*\}/.test(text.replace(PLACEHOLDER, ''))) ctx.addIssue({ code: 'custom', message: 'a brace that is not a placeholder {ref|format}' });
  });

const Turn = z.object({ say: Text, expect: Expectation.optional() }).strict();

const Question = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'an id of lower-case letters, digits and dashes'),
    language: z.enum(SET_LANGUAGES),
    /** The site's locale the guest writes from (default: en for English, vi otherwise). */
    locale: z.enum(['en', 'vi']).optional(),
    /** The language the answer must be in (default: en for English, vi for Vietnamese with or without diacritics, any for mixed). */
    answer: z.enum(['en', 'vi', 'any']).optional(),
    /** Why the question is here (what it tests), for the reader. */
    note: z.string().max(500).optional(),
    say: Text.optional(),
    expect: Expectation.optional(),
    turns: z.array(Turn).min(2).max(6).optional(),
  })
  .strict()
  .refine((q) => (q.turns ? !q.say && !q.expect : Boolean(q.say && q.expect)), 'a question has either say and expect, or turns')
  .refine((q) => !q.turns || Boolean(q.turns.at(-1)!.expect), 'the last turn has an expectation');

export const QuestionFile = z.object({ category: z.enum(SET_CATEGORIES), questions: z.array(Question).min(1) }).strict();

/** The manifest: the set's fixtures, made by the runner's set-up as staff would (through the admin API). */
export const Manifest = z
  .object({
    name: z.string().regex(/^[a-z0-9-]+$/),
    written: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    description: z.string().max(2000),
    fixtures: z
      .object({
        /** A phone booking of another guest, whose contact and notes must never reach an answer. */
        booking: z
          .object({
            show: ShowRef,
            from: DateRef,
            offer: OfferRef,
            guests: z.number().int().min(1).max(10),
            contact: z.object({ name: z.string().min(1), email: z.string().email(), phone: z.string().min(8) }).strict(),
            customerNote: z.string().max(2000),
            staffNotes: z.string().max(4000),
          })
          .strict()
          .optional(),
      })
      .strict(),
  })
  .strict();
export type Manifest = z.infer<typeof Manifest>;

export interface SetTurn {
  say: string;
  expect?: Expectation;
}

export interface SetQuestion {
  id: string;
  file: string;
  category: SetCategory;
  language: SetLanguage;
  locale: 'en' | 'vi';
  answer: 'en' | 'vi' | 'any';
  note?: string;
  turns: SetTurn[];
}

export interface QuestionSet {
  name: string;
  manifest: Manifest;
  questions: SetQuestion[];
}

const MANIFEST = '_set.yaml';

/** The set's files, relative to SETS_DIR (`test/_set.yaml`, `test/knowledge.yaml` …), sorted. */
export function setFiles(name: string): string[] {
  const dir = path.join(SETS_DIR, name);
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((file) => `${name}/${file}`);
}

/** One line per file, `sha256sum`'s format (`<hex>  <path>`), the paths relative to SETS_DIR. */
export function checksums(name: string): string {
  return setFiles(name)
    .map((file) => `${createHash('sha256').update(fs.readFileSync(path.join(SETS_DIR, file))).digest('hex')}  ${file}`)
    .join('\n')
    .concat('\n');
}

export const checksumFile = (name: string) => path.join(SETS_DIR, `${name}.sha256`);

const issues = (error: z.ZodError) => error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');

/** Reads and validates a set; throws naming the file and the failing fields. */
export function loadSet(name: string): QuestionSet {
  let manifest: Manifest | undefined;
  const questions: SetQuestion[] = [];
  for (const file of setFiles(name)) {
    let data: unknown;
    try {
      data = parse(fs.readFileSync(path.join(SETS_DIR, file), 'utf8'));
    } catch (err) {
      throw new Error(`${file}: ${(err as Error).message}`);
    }
    if (path.basename(file) === MANIFEST) {
      const parsed = Manifest.safeParse(data);
      if (!parsed.success) throw new Error(`${file}: ${issues(parsed.error)}`);
      manifest = parsed.data;
      continue;
    }
    const parsed = QuestionFile.safeParse(data);
    if (!parsed.success) throw new Error(`${file}: ${issues(parsed.error)}`);
    for (const q of parsed.data.questions) {
      const locale = q.locale ?? (q.language === 'en' ? 'en' : 'vi');
      const answer = q.answer ?? (q.language === 'en' ? 'en' : q.language === 'mixed' ? 'any' : 'vi');
      const turns = q.turns ?? [{ say: q.say!, expect: q.expect! }];
      questions.push({ id: q.id, file, category: parsed.data.category, language: q.language, locale, answer, note: q.note, turns });
    }
  }
  if (!manifest) throw new Error(`set ${name}: no ${MANIFEST}`);
  return { name, manifest, questions };
}

/** The aspects an expectation is scored on: facts, declining/refusing, conversation. */
export type Aspect = 'factual' | 'declining' | 'conversation';

export function aspectsOf(expect: Expectation): Aspect[] {
  const aspects: Aspect[] = [];
  if (FACT_CLAIMS.some((claim) => expect[claim] !== undefined)) aspects.push('factual');
  if (DECLINE_CLAIMS.some((claim) => expect[claim] !== undefined)) aspects.push('declining');
  if (expect.greet) aspects.push('conversation');
  return aspects;
}

/** Every show slug, offer code and knowledge topic an expectation (or a placeholder) refers to, for the set's spec. */
export function referencesOf(question: SetQuestion): { shows: string[]; offers: string[]; topics: string[]; soldOut: boolean } {
  const shows = new Set<string>();
  const offers = new Set<string>();
  const topics = new Set<string>();
  let soldOut = false;
  const event = (ref: EventRef | undefined) => {
    if (!ref) return;
    if (ref === 'soldOut') soldOut = true;
    else if ('after' in ref) event(ref.after);
    else if (ref.show) show(ref.show);
  };
  const show = (slug: string | undefined) => {
    if (slug === 'soldOut') soldOut = true;
    else if (slug) shows.add(slug);
  };
  const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
  for (const turn of question.turns) {
    if (turn.say.includes('{soldOut|')) soldOut = true;
    const e = turn.expect;
    if (!e) continue;
    show(e.shows?.show);
    for (const slug of list(e.times)) show(slug);
    show(e.next?.show);
    event(e.next?.after);
    event(e.availability?.event);
    show(e.availability?.show);
    for (const claim of [e.price, e.total]) {
      if (claim?.offer) offers.add(claim.offer);
      show(claim?.show);
    }
    event(e.total?.event);
    show(e.cheapest?.show);
    show(e.dearest?.show);
    show(e.details?.show);
    if (e.details?.offer) offers.add(e.details.offer);
    for (const doc of list(e.document)) for (const topic of typeof doc === 'string' ? [doc] : doc.anyOf) topics.add(topic);
    for (const limit of list(e.limit)) offers.add(limit.offer);
    for (const slug of list(e.age)) show(slug);
    for (const link of list(e.link)) {
      if (typeof link === 'object' && 'booking' in link) event(link.booking);
      if (typeof link === 'object' && 'show' in link) show(link.show);
      if (typeof link === 'object' && 'bookShow' in link) show(link.bookShow);
    }
    for (const forbidden of e.not ?? []) {
      if (typeof forbidden === 'object' && 'bookingLinkOf' in forbidden) show(forbidden.bookingLinkOf);
      if (typeof forbidden === 'object' && 'titles' in forbidden) forbidden.titles.forEach(show);
    }
  }
  return { shows: [...shows], offers: [...offers], topics: [...topics], soldOut };
}
