import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';
import { fold } from '../offline/text.ts';

/**
 * The assistant's language as data (issue 35 §1): what each intent is (`intents.yaml`: its kind, and for a
 * practical subject the document tags that answer it) and, per language, how guests say it
 * (`sentences/<lang>/*.yaml`: cue phrases with weights, sentence templates, negative cues, and the slot lists —
 * days, parties, references, ranks). The show titles, offers and documents come from the venue's data at run time,
 * never from these files. `tests/<lang>/*.yaml` hold the sentences each intent must (and must not) be read from
 * (test/modules/assistant/language.spec.ts runs them).
 *
 * Matching works on folded text (`fold`: case and diacritics removed), so a Vietnamese phrase written with
 * diacritics also matches a guest who types without them. Every language's phrases are matched against every
 * message (guests mix languages); the language only decides the answer's.
 */

export const LANGUAGE_DIR = path.dirname(fileURLToPath(import.meta.url));

/** What an intent is: a live topic (tools answer it), a practical subject (documents), a subject declined, an attempt refused, conversation. */
export const INTENT_KINDS = ['topic', 'subject', 'decline', 'refuse', 'social'] as const;
export type IntentKind = (typeof INTENT_KINDS)[number];

const Phrase = z.preprocess((value) => (typeof value === 'number' ? String(value) : value), z.string().min(1).max(400));
const PhraseList = z.array(Phrase);

const IntentsFile = z
  .object({
    /** Weights of the cue strengths, and how close to the best an intent must score to be asked too. */
    weights: z.object({ weak: z.number().positive(), cue: z.number().positive(), strong: z.number().positive(), template: z.number().positive() }).strict(),
    /** An intent is part of a request when it scores at least `minimum` and at least `ratio` × the request's best. */
    keep: z.object({ minimum: z.number().positive(), ratio: z.number().min(0).max(1) }).strict(),
    /** Each kind's cues count this many times their weight (templates do not scale). */
    scale: z.record(z.enum(INTENT_KINDS), z.number().positive()).optional(),
    intents: z.record(
      z.string().regex(/^[a-z][A-Za-z]*$/),
      z.object({ kind: z.enum(INTENT_KINDS), tags: z.array(z.string()).optional(), absorbs: z.boolean().optional(), sellsTickets: z.boolean().optional(), note: z.string().optional() }).strict(),
    ),
  })
  .strict();

const IntentSentences = z
  .object({
    weak: PhraseList.optional(),
    cues: PhraseList.optional(),
    strong: PhraseList.optional(),
    /** Phrases that, in the same request, mean this intent is not asked ("how much time" is no price question). */
    negative: PhraseList.optional(),
    /** Whole-sentence templates: words, (a|b) alternatives, [optional] parts, {any} (0–6 words), {n} (a number), {word} (one word). */
    templates: PhraseList.optional(),
  })
  .strict();

const SentencesFile = z
  .object({
    language: z.string().regex(/^[a-z]{2}$/),
    intents: z.record(z.string(), IntentSentences).optional(),
    /** Slot lists: words and phrases the understanding reads values from (ranks, relative days, references, parties …). */
    lists: z.record(z.string(), PhraseList).optional(),
    /** Number words and their values ("two", "hai"). */
    numbers: z.record(z.string(), z.number().int().min(0).max(1000)).optional(),
    /** Chat shorthand read as the words it stands for ("u" → "you", "tmr" → "tomorrow", "ko" → "khong"). */
    shorthand: z.record(z.string(), z.string()).optional(),
  })
  .strict();

/** The slot lists the understanding reads (each a list of phrases, `*` ending a prefix). */
export const LIST_NAMES = [
  'cheapest', 'dearest', 'dayAfter', 'dayBefore', 'anaphora', 'weakDetails', 'questionWords', 'venueWords', 'acrossShows', 'commonTitleWords',
  'places', 'followUp', 'genericWords', 'duration', 'guestWords', 'adultWords', 'childWords', 'ageWords', 'splitters', 'notDays', 'showWords',
  'refFirst', 'refLast', 'refNext', 'countFillers', 'nextCountLead', 'refPrevious', 'refThat', 'bookIt', 'couple', 'stopWords', 'partyLead', 'notPeople', 'joiners',
  'oneWords', 'oneChild', 'personWords', 'notPeopleAfter', 'notOthers', 'notPersons', 'pairWords', 'twinWords', 'grownIfAlone', 'corrections', 'plusWords', 'solo', 'selfWords', 'partyAdd', 'partyRestate', 'childCost', 'sharedVenueWords', 'ageLead', 'comparatives', 'compareWords', 'countOpeners', 'markers', 'includes', 'timeLead', 'timeUnits', 'afternoonUnits', 'vocabulary',
] as const;
export type ListName = (typeof LIST_NAMES)[number];

interface Cue {
  intent: string;
  weak: boolean;
  words: string[];
  /** The last word is a prefix (`price*`). */
  prefix: boolean;
  weight: number;
}

interface Template {
  intent: string;
  source: string;
  pattern: RegExp;
  weight: number;
}

export interface IntentInfo {
  name: string;
  kind: IntentKind;
  tags: string[];
  /** A request referring back to this intent's ("…, what time is it?") is about it. */
  absorbs: boolean;
  /** A subject outside the venue that sells tickets or takes bookings too: "the ticket" after it is its own. */
  sellsTickets: boolean;
}

/** A cue found in a request: which words (token positions) it covers, for whom, with what weight. */
export interface CueMatch {
  intent: string;
  /** A weak cue: evidence only beside others. */
  weak?: boolean;
  start: number;
  end: number;
  weight: number;
  phrase: string;
}

/** A request's reading: each intent's score, the cues that made it, and whether a negative cue ruled it out. */
export interface Scores {
  scores: Map<string, number>;
  matches: CueMatch[];
  /** The tokens covered by a cue of two words or more (a phrase that holds a day word is not a day: "khuyến mãi"). */
  covered: Set<number>;
}

export class Lexicon {
  readonly intents = new Map<string, IntentInfo>();
  readonly weights: z.infer<typeof IntentsFile>['weights'];
  readonly keep: z.infer<typeof IntentsFile>['keep'];
  private readonly cuesByFirst = new Map<string, Cue[]>();
  private readonly prefixCues: Cue[] = [];
  private readonly negatives = new Map<string, string[]>();
  private readonly templates: Template[] = [];
  private readonly lists = new Map<string, string[]>();
  readonly numbers = new Map<string, number>();
  private readonly shorthand = new Map<string, string>();
  /** Every word of every phrase (the typo repair's vocabulary). */
  readonly vocabulary = new Set<string>();
  readonly languages: string[] = [];
  /** The words each language's files use (what tells the language of a message). */
  private readonly wordsOf = new Map<string, Set<string>>();
  /** Each language's own everyday words (its `markers` list): what tells a message's language first. */
  private readonly markersOf = new Map<string, Set<string>>();

  constructor(intentsFile: unknown, sentenceFiles: Array<{ file: string; data: unknown }>) {
    const intents = IntentsFile.parse(intentsFile);
    this.weights = intents.weights;
    this.keep = intents.keep;
    for (const [name, spec] of Object.entries(intents.intents)) this.intents.set(name, { name, kind: spec.kind, tags: spec.tags ?? [], absorbs: spec.absorbs ?? false, sellsTickets: spec.sellsTickets ?? false });
    for (const name of LIST_NAMES) this.lists.set(name, []);
    // Templates are compiled once every file's lists are read: `{other}` excludes the `notOthers` list.
    const pending: Array<{ intent: string; source: string; file: string }> = [];
    for (const { file, data } of sentenceFiles) {
      const parsed = SentencesFile.safeParse(data);
      if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
      const sentences = parsed.data;
      if (!this.languages.includes(sentences.language)) this.languages.push(sentences.language);
      const own = this.wordsOf.get(sentences.language) ?? new Set<string>();
      this.wordsOf.set(sentences.language, own);
      const collect = (phrase: string) => {
        for (const word of normal(phrase).replace(/\*$/, '').split(' ')) if (word.length > 1) own.add(word);
      };
      for (const spec of Object.values(sentences.intents ?? {})) for (const phrase of [...(spec.weak ?? []), ...(spec.cues ?? []), ...(spec.strong ?? []), ...(spec.templates ?? []).map((t) => t.replace(/[()[\]|{}]/g, ' ').replace(/\b(any|word|n|other|possessive)\b/g, ' '))]) collect(phrase);
      for (const [name, phrases] of Object.entries(sentences.lists ?? {})) if (name !== 'notOthers') for (const phrase of phrases) collect(phrase);
      for (const word of Object.keys(sentences.numbers ?? {})) collect(word);
      const markers = this.markersOf.get(sentences.language) ?? new Set<string>();
      this.markersOf.set(sentences.language, markers);
      for (const phrase of sentences.lists?.markers ?? []) for (const word of normal(phrase).split(' ')) if (word) markers.add(word);
      for (const [intent, spec] of Object.entries(sentences.intents ?? {})) {
        if (!this.intents.has(intent)) throw new Error(`${file}: intent ${intent} is not declared in intents.yaml`);
        const scale = intents.scale?.[this.intents.get(intent)!.kind] ?? 1;
        for (const [strength, weight] of [['weak', this.weights.weak], ['cues', this.weights.cue], ['strong', this.weights.strong]] as const) {
          for (const phrase of spec[strength] ?? []) this.addCue(intent, phrase, weight * scale, strength === 'weak');
        }
        for (const phrase of spec.negative ?? []) this.negatives.set(intent, [...(this.negatives.get(intent) ?? []), normal(phrase)]);
        for (const source of spec.templates ?? []) {
          pending.push({ intent, source, file });
          for (const word of fold(source.replace(/[()[\]|{}]/g, ' ')).trim().split(' ')) if (word && !/^(any|n|word|other|possessive)$/.test(word)) this.vocabulary.add(word.replace(/\*$/, ''));
        }
      }
      for (const [name, phrases] of Object.entries(sentences.lists ?? {})) {
        if (!(LIST_NAMES as readonly string[]).includes(name)) throw new Error(`${file}: unknown list ${name} (one of ${LIST_NAMES.join(', ')})`);
        this.lists.set(name, [...new Set([...(this.lists.get(name) ?? []), ...phrases.map(normal)])]);
        // An exclusion list is no vocabulary: its words must not become what a guest's typo is repaired to.
        if (name !== 'notOthers') for (const phrase of phrases) this.addVocabulary(phrase);
      }
      for (const [word, meaning] of Object.entries(sentences.shorthand ?? {})) {
        this.shorthand.set(normal(word), normal(meaning));
        this.addVocabulary(word);
        this.addVocabulary(meaning);
      }
      for (const [word, value] of Object.entries(sentences.numbers ?? {})) {
        this.numbers.set(normal(word), value);
        this.addVocabulary(word);
      }
    }
    const others = this.lists.get('notOthers') ?? [];
    for (const { intent, source, file } of pending) this.templates.push({ intent, source, pattern: compileTemplate(source, file, { notOthers: others }), weight: this.weights.template });
  }

  private addCue(intent: string, phrase: string, weight: number, weak = false): void {
    const text = normal(phrase);
    const prefix = text.endsWith('*');
    const words = text.replace(/\*$/, '').split(' ').filter(Boolean);
    if (!words.length) return;
    const cue: Cue = { intent, words, prefix, weight, weak };
    if (prefix && words.length === 1) this.prefixCues.push(cue);
    else this.cuesByFirst.set(words[0], [...(this.cuesByFirst.get(words[0]) ?? []), cue]);
    this.addVocabulary(phrase);
  }

  private addVocabulary(phrase: string): void {
    for (const word of normal(phrase).replace(/\*$/, '').split(' ')) if (word) this.vocabulary.add(word);
  }

  /** How many words of a folded text only each language's files use. */
  languageCounts(folded: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const word of folded.trim().split(' ')) {
      // A language's own everyday word tells first; else a word only one language's sentences hold (the English
      // files hold Vietnamese phrases of mixed messages, so many Vietnamese words are in both).
      const marked = [...this.markersOf].filter(([, words]) => words.has(word)).map(([language]) => language);
      const owners = marked.length ? marked : [...this.wordsOf].filter(([, words]) => words.has(word)).map(([language]) => language);
      if (owners.length === 1) counts.set(owners[0], (counts.get(owners[0]) ?? 0) + 1);
    }
    return counts;
  }

  /** Folded text with chat shorthand written out. */
  expand(folded: string): string {
    if (!this.shorthand.size) return folded;
    let changed = false;
    const words = folded.trim().split(' ').map((word) => {
      const long = this.shorthand.get(word);
      if (long === undefined) return word;
      changed = true;
      return long;
    });
    return changed ? ` ${words.filter(Boolean).join(' ')} ` : folded;
  }

  info(intent: string): IntentInfo | undefined {
    return this.intents.get(intent);
  }

  /** The phrases of a slot list (folded). */
  list(name: ListName): readonly string[] {
    return this.lists.get(name) ?? [];
  }

  /** Whether the folded text holds a phrase of the list (as whole words; `*` a prefix). */
  has(folded: string, name: ListName): boolean {
    return this.list(name).some((phrase) => hasPhrase(folded, phrase));
  }

  /** Whether the folded text starts with a phrase of the list ("and …", "còn …"). */
  opens(folded: string, name: ListName): boolean {
    return this.list(name).some((phrase) => folded.startsWith(` ${phrase} `));
  }

  /** The phrases of the list the folded text holds. */
  found(folded: string, name: ListName): string[] {
    return this.list(name).filter((phrase) => hasPhrase(folded, phrase));
  }

  /**
   * Every intent's score in one request (folded text): the cues found, longest first, each word counted for
   * one phrase only (all the intents sharing that very phrase score it) — "mã giảm giá" is a discount and not a
   * price, "khuyến mãi" holds no "mai" (tomorrow) —, plus the templates matched; an intent whose negative cue is
   * present scores nothing.
   */
  score(folded: string): Scores {
    const tokens = folded.trim().split(' ').filter(Boolean);
    const candidates: CueMatch[] = [];
    for (let i = 0; i < tokens.length; i++) {
      for (const cue of this.cuesByFirst.get(tokens[i]) ?? []) {
        if (matchesAt(tokens, i, cue)) candidates.push({ intent: cue.intent, start: i, end: i + cue.words.length, weight: cue.weight, weak: cue.weak, phrase: cue.words.join(' ') + (cue.prefix ? '*' : '') });
      }
      for (const cue of this.prefixCues) {
        if (tokens[i].startsWith(cue.words[0])) candidates.push({ intent: cue.intent, start: i, end: i + 1, weight: cue.weight, weak: cue.weak, phrase: `${cue.words[0]}*` });
      }
    }
    // Longest phrase first; then the heavier; a phrase claims its words.
    candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || b.weight - a.weight);
    const owner = new Map<number, string>();
    const matches: CueMatch[] = [];
    const covered = new Set<number>();
    for (const match of candidates) {
      const key = `${match.start}:${match.end}`;
      let free = true;
      for (let i = match.start; i < match.end; i++) {
        const taken = owner.get(i);
        if (taken !== undefined && taken !== key) free = false;
      }
      if (!free) continue;
      for (let i = match.start; i < match.end; i++) {
        owner.set(i, key);
        if (match.end - match.start > 1) covered.add(i);
      }
      matches.push(match);
    }
    const scores = new Map<string, number>();
    const best = new Map<string, number>();
    for (const match of matches) {
      // One intent scores each distinct phrase once ("show … show" is one cue), its heaviest reading.
      const key = `${match.intent} ${match.phrase}`;
      if ((best.get(key) ?? 0) >= match.weight) continue;
      scores.set(match.intent, (scores.get(match.intent) ?? 0) - (best.get(key) ?? 0) + match.weight);
      best.set(key, match.weight);
    }
    for (const template of this.templates) {
      if (template.pattern.test(folded)) {
        scores.set(template.intent, (scores.get(template.intent) ?? 0) + template.weight);
        matches.push({ intent: template.intent, start: -1, end: -1, weight: template.weight, phrase: template.source });
      }
    }
    for (const [intent, phrases] of this.negatives) {
      if (scores.has(intent) && phrases.some((phrase) => hasPhrase(folded, phrase))) scores.delete(intent);
    }
    return { scores, matches, covered };
  }
}

function matchesAt(tokens: string[], start: number, cue: Cue): boolean {
  if (start + cue.words.length > tokens.length) return false;
  for (let j = 0; j < cue.words.length; j++) {
    const token = tokens[start + j];
    const word = cue.words[j];
    if (j === cue.words.length - 1 && cue.prefix ? !token.startsWith(word) : token !== word) return false;
  }
  return true;
}

/** A phrase folded as messages are (`*` kept at its end). */
function normal(phrase: string): string {
  const prefix = phrase.trim().endsWith('*');
  return fold(phrase.replace(/\*$/, '')).trim() + (prefix ? '*' : '');
}

export function hasPhrase(folded: string, phrase: string): boolean {
  if (phrase.endsWith('*')) return folded.includes(` ${phrase.slice(0, -1)}`);
  return folded.includes(` ${phrase} `);
}

/**
 * A template as a pattern over folded text (` word word `): words (`*` ending a prefix), `(a|b)` one of,
 * `[a|b]` optionally one of, `{any}` up to six words, `{word}` one word, `{n}` a number (digits or a number word is
 * not known here: digits), `{other}` one word that is none of `notOthers` (a person other than the guest or the
 * assistant, or a name: not "I", "you", "there", "it", a day …), `{possessive}` such a word's possessive as folded
 * ("Khoa's" → "khoas").
 */
export function compileTemplate(source: string, file = 'template', slots: { notOthers?: readonly string[] } = {}): RegExp {
  const text = source.trim();
  let at = 0;
  const fail = (message: string) => new Error(`${file}: template "${source}": ${message}`);
  const sequence = (): string => {
    let out = '';
    while (at < text.length) {
      const char = text[at];
      if (char === ' ') {
        at++;
        continue;
      }
      if (char === ')' || char === ']' || char === '|') break;
      if (char === '(' || char === '[') {
        at++;
        const alternatives = [sequence()];
        while (text[at] === '|') {
          at++;
          alternatives.push(sequence());
        }
        const close = char === '(' ? ')' : ']';
        if (text[at] !== close) throw fail(`expected ${close}`);
        at++;
        out += `(?:${alternatives.join('|')})${char === '[' ? '?' : ''}`;
        continue;
      }
      if (char === '{') {
        const end = text.indexOf('}', at);
        if (end < 0) throw fail('expected }');
        const slot = text.slice(at + 1, end);
        at = end + 1;
        if (slot === 'any') out += '(?:\\S+ ){0,6}';
        else if (slot === 'word') out += '\\S+ ';
        else if (slot === 'n') out += '\\d+ ';
        else if (slot === 'other' || slot === 'possessive') {
          // A possessive is folded into its word ("Khoa's" → "khoas"): a word ending in s that is none of notOthers.
          const not = slots.notOthers?.length ? `(?!(?:${slots.notOthers.map(escape).join('|')}) )` : '';
          out += slot === 'other' ? `${not}\\S+ ` : `${not}\\S+s `;
        }
        else throw fail(`unknown slot {${slot}}`);
        continue;
      }
      let end = at;
      while (end < text.length && !' ()[]|{}'.includes(text[end])) end++;
      const raw = text.slice(at, end);
      at = end;
      const prefix = raw.endsWith('*');
      const folded = fold(raw.replace(/\*$/, '')).trim();
      if (!folded) continue;
      out += folded
        .split(' ')
        .map((word, index, all) => `${escape(word)}${prefix && index === all.length - 1 ? '\\S*' : ''} `)
        .join('');
    }
    return out;
  };
  const body = sequence();
  if (at < text.length) throw fail(`unexpected ${text[at]}`);
  return new RegExp(` ${body}`);
}

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let loaded: Lexicon | undefined;

/** The lexicon of the files beside this module (read once, on first use). */
export function lexicon(): Lexicon {
  if (!loaded) loaded = loadLexicon(LANGUAGE_DIR);
  return loaded;
}

export function loadLexicon(dir: string): Lexicon {
  const intents = parse(fs.readFileSync(path.join(dir, 'intents.yaml'), 'utf8'));
  const files: Array<{ file: string; data: unknown }> = [];
  const root = path.join(dir, 'sentences');
  for (const language of fs.readdirSync(root).sort()) {
    for (const name of fs.readdirSync(path.join(root, language)).sort()) {
      if (!name.endsWith('.yaml')) continue;
      const file = path.join(root, language, name);
      files.push({ file: path.relative(dir, file), data: parse(fs.readFileSync(file, 'utf8')) });
    }
  }
  return new Lexicon(intents, files);
}
