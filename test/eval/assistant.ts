/**
 * `npm run eval:assistant` — the assistant measured, not asserted (issue 24), on a written or the generated set (issue 35 §6):
 *
 * - `--set dev` (the default): the development set, written as data in test/eval/sets/dev/*.yaml the way guests
 *   write (./set.ts, the test set's format); the one the assistant is tuned on, edited and grown freely.
 * - `--set generated`: the older development set, generated from the venue's facts by ./questions.ts (seeded).
 * - `--set test`: the frozen test set, written as data in test/eval/sets/test/*.yaml (./set.ts) by someone who does
 *   not write the rules, from the venue's public information only; its expectations refer to the venue's facts by
 *   meaning and are graded by ./expect.ts. Never tuned on; it grows only by new writing (test/eval/sets/README.md).
 * - `--set holdout`: the frozen held-out set (test/eval/sets/holdout/*.yaml, the same format), written after the test
 *   set had been read during tuning, by someone who read neither the rules nor the other sets. Never tuned on; run
 *   once per change and reported.
 * - `--set blind`: the frozen blind held-out set (test/eval/sets/blind/*.yaml, the same format), written on 2026-11-28
 *   by a helper who read neither the rules nor the other sets' questions nor any evaluation output, from the venue's
 *   public information only. Never tuned on; its author never saw the assistant's answers to it.
 *
 * Starts the app on an in-memory PGlite database with the demo venue seeded (as the assistant's specs do), makes
 * the set's fixtures as staff would (a sold-out performance; for a written set, another guest's phone booking whose
 * details must never reach an answer), reads the venue through the assistant-safe routes, asks each question through
 * `POST /llm/chat` as the website would (UI messages, SSE, the history with its tool parts sent back), times the
 * first text and the end of the stream, grades each answer and prints the factual score and the declining/refusing
 * score separately, link validity, leaks, per category and per language, the latencies and the failures. It
 * measures and never gates: the exit code is 0 unless the run itself crashed.
 *
 *   npm run eval:assistant -- [--set dev|test|holdout|blind|generated] [--seed N] [--verbose] [--json results.json] [--only category,category] [--ids id,id]
 */
import fs from 'node:fs/promises';
import { DateTime } from 'luxon';
import { closeTestDatabase } from '../helpers/database.ts';
import { SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { SITE, startAssistantServer } from '../modules/assistant/demoVenue.ts';
import { chat, userMessage, type UiMessage } from './chat.ts';
import { fail, languageIs, leakedSecrets, linksIn, linksValid, noPrivateContacts, ok, type Verdict } from './checks.ts';
import { prepareTurn, render, Resolver, secretsOf, Unresolved } from './expect.ts';
import { CATEGORIES, DEFAULT_COUNTS, generateQuestions, type Category } from './questions.ts';
import { aspectsOf, loadSet, SET_CATEGORIES, SET_LANGUAGES, type Aspect, type Manifest, type QuestionSet } from './set.ts';
import { readVenue, soldOutOne, type Locale, type Venue } from './venue.ts';

/** The template-generated development set (./questions.ts); every other name is a written set under test/eval/sets/. */
const GENERATED = 'generated';
/** Written sets that are frozen (never tuned on, checksummed); the others may be edited freely. */
const FROZEN = new Set(['test', 'holdout', 'blind']);

interface Options {
  set: string;
  seed: number;
  verbose: boolean;
  json?: string;
  only?: string[];
  /** Only these questions (their ids; a written set's), to look at a few answers while working on them. */
  ids?: string[];
}

function parseArgs(argv: string[]): Options {
  const options: Options = { set: 'dev', seed: 24, verbose: false };
  const value = (arg: string, name: string, i: number): [string, number] => (arg === name ? [argv[i + 1], i + 1] : [arg.slice(name.length + 1), i]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const name = arg.split('=')[0];
    if (name === '--seed' || name === '--json' || name === '--only' || name === '--set' || name === '--ids') {
      const [text, next] = value(arg, name, i);
      i = next;
      if (text === undefined) throw new Error(`${name} takes a value`);
      if (name === '--seed') options.seed = Number(text);
      if (name === '--json') options.json = text;
      if (name === '--only') options.only = text.split(',');
      if (name === '--set') options.set = text;
      if (name === '--ids') options.ids = text.split(',');
    } else if (arg === '--verbose' || arg === '-v') options.verbose = true;
    else if (arg === '--help' || arg === '-h') {
      console.log('npm run eval:assistant -- [--set dev|test|holdout|blind|generated] [--seed N] [--verbose] [--json file] [--only category,…] [--ids id,…]');
      process.exit(0);
    } else throw new Error(`unknown option ${arg}`);
  }
  if (!Number.isInteger(options.seed)) throw new Error('--seed takes an integer');
  const categories: readonly string[] = options.set === GENERATED ? CATEGORIES : SET_CATEGORIES;
  for (const category of options.only ?? []) if (!categories.includes(category)) throw new Error(`unknown category ${category} (one of ${categories.join(', ')})`);
  return options;
}

/** One question as the runner asks it, whichever set it comes from: texts, and a grader for each graded turn. */
interface RunQuestion {
  id: string;
  category: string;
  kind: string;
  language: string;
  locale: Locale;
  answerLanguage: Locale | 'any';
  turns: Array<{ text: string; aspects: Aspect[]; grade?: (answer: string) => Partial<Record<Aspect, Verdict>> }>;
}

interface TurnResult {
  text: string;
  answer: string;
  firstTextMs?: number;
  endMs: number;
  graded: boolean;
  verdicts?: Partial<Record<Aspect, Verdict>>;
  links: number;
  invalidLink?: string;
  leaks: string[];
  tools: string[];
}

interface Result {
  id: string;
  category: string;
  kind: string;
  language: string;
  locale: string;
  /** Per aspect the question is scored on: whether every graded turn passed it. */
  aspects: Partial<Record<Aspect, Verdict>>;
  pass: boolean;
  reason: string;
  turns: TurnResult[];
}

const ASPECTS: Aspect[] = ['factual', 'declining', 'conversation'];
const ASPECT_NAMES: Record<Aspect, string> = { factual: 'factual', declining: 'declining & refusing', conversation: 'conversation' };

/** The generated set's categories by what they score: declines and refusals, a question back, or facts. */
function devAspect(category: Category): Aspect {
  if (category === 'outOfScope' || category === 'injection' || category === 'ownBooking') return 'declining';
  if (category === 'clarify') return 'conversation';
  return 'factual';
}

async function devQuestions(venue: Venue, options: Options): Promise<RunQuestion[]> {
  const counts = { ...DEFAULT_COUNTS };
  if (options.only) for (const category of CATEGORIES) if (!options.only.includes(category)) counts[category] = 0;
  const questions = await generateQuestions(venue, options.seed, counts);
  return questions.map((question) => {
    const aspect = devAspect(question.category);
    return {
      ...question,
      turns: question.turns.map((turn) => ({ text: turn.text, aspects: turn.check ? [aspect] : [], grade: turn.check && ((answer: string) => ({ [aspect]: turn.check!(answer) })) })),
    };
  });
}

async function testQuestions(set: QuestionSet, venue: Venue, options: Options): Promise<RunQuestion[]> {
  const resolver = new Resolver(venue);
  const questions: RunQuestion[] = [];
  for (const question of set.questions) {
    if (options.only && !options.only.includes(question.category)) continue;
    if (options.ids && !options.ids.includes(question.id)) continue;
    const turns: RunQuestion['turns'] = [];
    for (const turn of question.turns) {
      let text = turn.say;
      let unresolved: string | undefined;
      try {
        text = render(turn.say, resolver);
      } catch (err) {
        if (!(err instanceof Unresolved)) throw err;
        unresolved = err.message;
      }
      if (!turn.expect) {
        turns.push({ text, aspects: [] });
        continue;
      }
      const aspects = aspectsOf(turn.expect);
      if (unresolved) {
        const reason = `unresolved: ${unresolved}`;
        turns.push({ text, aspects, grade: () => Object.fromEntries(aspects.map((aspect) => [aspect, fail(reason)])) });
        continue;
      }
      const check = await prepareTurn(turn.expect, question, resolver);
      turns.push({ text, aspects, grade: check.grade });
    }
    const last = question.turns.at(-1)!.expect!;
    const kind = last.decline ? [last.decline].flat().join('+') : (last.refuse ?? '');
    questions.push({ id: question.id, category: question.category, kind, language: question.language, locale: question.locale, answerLanguage: question.answer, turns });
  }
  return questions;
}

/** Checks every graded answer gets: it came, it is in the guest's language, its links are the site's. */
function baseline(question: RunQuestion, venue: Venue, answer: { text: string; error?: string }): Verdict {
  if (answer.error) return fail(answer.error);
  if (!answer.text.trim()) return fail('empty answer');
  const links = linksValid(answer.text, venue);
  if (!links.pass) return links;
  return languageIs(answer.text, question.answerLanguage, venue);
}

async function ask(server: TestServer, venue: Venue, question: RunQuestion, secrets: readonly string[]): Promise<Result> {
  const messages: UiMessage[] = [];
  const turns: TurnResult[] = [];
  const aspects: Partial<Record<Aspect, Verdict>> = {};
  let crashed: Verdict | undefined;
  let asked = '';
  for (const [index, turn] of question.turns.entries()) {
    messages.push(userMessage(turn.text, `${question.id}-u${index + 1}`));
    asked += `\n${turn.text}`;
    const answer = await chat(server.baseUrl, messages, question.locale, question.id);
    messages.push(answer.message);
    const tools = answer.chunks.filter((chunk) => chunk.type === 'tool-input-available').map((chunk) => String(chunk.toolName));
    const links = linksValid(answer.text, venue);
    const contacts = noPrivateContacts(answer.text, venue);
    const result: TurnResult = {
      text: turn.text,
      answer: answer.text,
      firstTextMs: answer.firstTextMs,
      endMs: answer.endMs,
      graded: Boolean(turn.grade),
      links: linksIn(answer.text).length,
      invalidLink: links.pass ? undefined : links.reason,
      leaks: [...(contacts.pass ? [] : [contacts.reason]), ...leakedSecrets(answer.text, secrets, asked)],
      tools,
    };
    const prefix = question.turns.length > 1 ? `turn ${index + 1}: ` : '';
    if (turn.grade) {
      const base = baseline(question, venue, answer);
      result.verdicts = base.pass ? turn.grade(answer.text) : Object.fromEntries(turn.aspects.map((aspect) => [aspect, base]));
      for (const aspect of turn.aspects) {
        const verdict = result.verdicts[aspect] ?? ok;
        if (!aspects[aspect]) aspects[aspect] = ok;
        if (!verdict.pass && aspects[aspect]!.pass) aspects[aspect] = fail(`${prefix}${verdict.reason}`);
      }
    } else if (answer.error && !crashed) crashed = fail(`${prefix}${answer.error}`);
    turns.push(result);
  }
  if (crashed) for (const aspect of ASPECTS) if (aspects[aspect]?.pass) aspects[aspect] = crashed;
  const failed = ASPECTS.map((aspect) => aspects[aspect]).find((verdict) => verdict && !verdict.pass);
  return { id: question.id, category: question.category, kind: question.kind, language: question.language, locale: question.locale, aspects, pass: !failed, reason: failed?.reason ?? '', turns };
}

function percentile(values: number[], p: number): number | undefined {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const pct = (passed: number, total: number) => (total ? `${((100 * passed) / total).toFixed(1)} %` : '–');
const ms = (value: number | undefined) => (value === undefined ? '–' : `${Math.round(value)} ms`);

function table(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row, index) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ') + (index === 0 ? `\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : '')).join('\n');
}

/** `passed/total (pct)` of the results scored on an aspect (or of all, for `all`). */
function score(results: Result[], aspect: Aspect | 'all'): { passed: number; total: number; text: string } {
  const scored = aspect === 'all' ? results : results.filter((result) => result.aspects[aspect]);
  const passed = scored.filter((result) => (aspect === 'all' ? result.pass : result.aspects[aspect]!.pass)).length;
  return { passed, total: scored.length, text: scored.length ? `${passed}/${scored.length} ${pct(passed, scored.length)}` : '–' };
}

function report(results: Result[], meta: Record<string, unknown>, options: Options, categories: readonly string[], languages: readonly string[]): string {
  const lines: string[] = [];
  const turns = results.flatMap((result) => result.turns);
  lines.push(`assistant evaluation — set ${meta.set}, ${results.length} questions (${turns.length} /llm/chat turns), model ${meta.model}, today ${meta.today} (${meta.timeZone})`);
  lines.push('');
  lines.push(table([['score', 'passed', 'accuracy'], ...[...ASPECTS, 'all' as const].map((aspect) => [aspect === 'all' ? 'all (every part of every question)' : ASPECT_NAMES[aspect], `${score(results, aspect).passed}/${score(results, aspect).total}`, pct(score(results, aspect).passed, score(results, aspect).total)])]));
  const linked = turns.filter((turn) => turn.links > 0);
  const invalid = turns.filter((turn) => turn.invalidLink);
  const leaking = results.filter((result) => result.turns.some((turn) => turn.leaks.length));
  lines.push('');
  lines.push(`links: ${linked.length} answers with links, ${linked.length - invalid.length} with every link one of the site's (${pct(linked.length - invalid.length, linked.length)})`);
  for (const turn of invalid.slice(0, 10)) lines.push(`  - ${turn.invalidLink}  ← ${JSON.stringify(turn.text)}`);
  lines.push(`leaks: ${leaking.length} questions with an unpublished contact or another guest's data in an answer`);
  for (const result of leaking) lines.push(`  - [${result.id}] ${result.turns.flatMap((turn) => turn.leaks).join('; ')}`);
  const breakdown = (title: string, keys: readonly string[], key: (result: Result) => string) => {
    const rows = keys
      .map((name) => {
        const mine = results.filter((result) => key(result) === name);
        return [name, String(mine.length), ...[...ASPECTS, 'all' as const].map((aspect) => score(mine, aspect).text)];
      })
      .filter((row) => row[1] !== '0');
    return table([[title, 'questions', 'factual', 'declining & refusing', 'conversation', 'all'], ...rows]);
  };
  lines.push('');
  lines.push(breakdown('category', categories, (r) => r.category));
  lines.push('');
  lines.push(breakdown('language', languages, (r) => r.language));
  const kinds = [...new Set(results.filter((r) => r.kind && r.aspects.declining).map((r) => r.kind))].sort();
  if (kinds.length && options.set !== GENERATED) {
    lines.push('');
    lines.push(breakdown('declined / refused', kinds, (r) => r.kind));
  }
  const first = turns.map((turn) => turn.firstTextMs).filter((value): value is number => value !== undefined);
  const end = turns.map((turn) => turn.endMs);
  const ratio = turns.filter((turn) => turn.firstTextMs !== undefined && turn.endMs > 0).map((turn) => turn.firstTextMs! / turn.endMs);
  lines.push('');
  lines.push(
    table([
      ['/llm/chat latency', 'p50', 'p95', 'max'],
      ['time to first text', ms(percentile(first, 50)), ms(percentile(first, 95)), ms(percentile(first, 100))],
      ['time to end of stream', ms(percentile(end, 50)), ms(percentile(end, 95)), ms(percentile(end, 100))],
      ['first text / end (ratio)', (percentile(ratio, 50) ?? 0).toFixed(2), (percentile(ratio, 95) ?? 0).toFixed(2), (percentile(ratio, 100) ?? 0).toFixed(2)],
    ]),
  );
  if (first.length < turns.length) lines.push(`(${turns.length - first.length} turn(s) streamed no text)`);
  const failures = results.filter((result) => !result.pass);
  const shown = options.verbose ? failures : failures.slice(0, 40);
  lines.push('');
  lines.push(`failures: ${failures.length}${shown.length < failures.length ? ` (first ${shown.length}; --verbose for all)` : ''}`);
  for (const result of shown) {
    const graded = result.turns.find((turn) => turn.verdicts && Object.values(turn.verdicts).some((verdict) => !verdict.pass)) ?? result.turns.at(-1)!;
    const asked = result.turns.map((turn) => turn.text).join(' → ');
    const failed = ASPECTS.filter((aspect) => result.aspects[aspect] && !result.aspects[aspect]!.pass);
    lines.push(`- [${result.id} · ${result.category}${result.kind && !result.kind.startsWith('phrasing') ? ` / ${result.kind}` : ''} · ${result.language} · ${failed.join('+')}] ${asked}`);
    lines.push(`    why: ${result.reason}`);
    lines.push(`    answer: ${JSON.stringify(graded.answer.slice(0, 200))}${graded.tools.length ? `  (tools: ${graded.tools.join(', ')})` : ''}`);
  }
  return lines.join('\n');
}

/**
 * The test set's fixture booking: another guest's phone booking taken by staff through the admin API (contact,
 * the guest's note, staff notes), on the show's first performance from the given date that has seats. Social
 * engineering questions ask for it; none of it may reach an answer.
 */
async function placeFixtureBooking(server: TestServer, venue: Venue, fixture: NonNullable<Manifest['fixtures']['booking']>): Promise<void> {
  const headers = { 'x-api-token': SUPERUSER_TOKEN };
  const from = new Resolver(venue).range(fixture.from).from;
  const event = venue.events.find((item) => item.showSlug === fixture.show && item.date >= from && item.availability === 'AVAILABLE' && !venue.soldOut.includes(item.eventSlug));
  if (!event) throw new Error(`fixture booking: no performance of ${fixture.show} with seats from ${from}`);
  const rows = await server.request<any>('GET', '/api/show-events?limit=100', { headers });
  const row = rows.body.items?.find((item: any) => item.slug === event.eventSlug);
  if (!row) throw new Error(`fixture booking: ${event.eventSlug} not in the staff list`);
  const body = { eventId: row.id, offerCode: fixture.offer, guestCount: fixture.guests, contact: { ...fixture.contact }, customerNote: fixture.customerNote, staffNotes: fixture.staffNotes, confirm: true };
  const res = await server.request('POST', '/api/reservations', { headers, body });
  if (res.status !== 201) throw new Error(`fixture booking: ${res.status} ${res.text.slice(0, 300)}`);
}

/** Every reservation as staff see it (contacts and references), for the leak detector. */
async function reservations(server: TestServer): Promise<any[]> {
  const rows: any[] = [];
  for (;;) {
    const res = await server.request<any>('GET', `/api/reservations?limit=100&offset=${rows.length}`, { headers: { 'x-api-token': SUPERUSER_TOKEN } });
    if (res.status !== 200) throw new Error(`listing reservations: ${res.status}`);
    rows.push(...res.body.items);
    if (!res.body.items.length || rows.length >= res.body.total) return rows;
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const set = options.set === GENERATED ? undefined : loadSet(options.set);
  // The website's chat is rate limited per address; the evaluation is one address asking a few hundred times.
  const server = await startAssistantServer({ llmChatRateLimitPerMinute: 100_000 });
  try {
    const soldOut = await soldOutOne(server, SUPERUSER_TOKEN);
    let venue = await readVenue(server, SITE);
    venue.soldOut = soldOut;
    const fixture = set?.manifest.fixtures.booking;
    if (fixture) {
      await placeFixtureBooking(server, venue, fixture);
      venue = await readVenue(server, SITE);
      venue.soldOut = soldOut;
    }
    const secrets = secretsOf(await reservations(server), fixture);
    const questions = set ? await testQuestions(set, venue, options) : await devQuestions(venue, options);
    const setupMs = Date.now() - started;
    process.stderr.write(`${questions.length} questions ${set ? `loaded from set ${set.name}` : `generated (seed ${options.seed})`} (set-up ${setupMs} ms); asking…\n`);
    const results: Result[] = [];
    for (const [index, question] of questions.entries()) {
      results.push(await ask(server, venue, question, secrets));
      if ((index + 1) % 25 === 0) process.stderr.write(`  ${index + 1}/${questions.length}\n`);
    }
    const label = set ? `${set.name} (written ${set.manifest.written}${FROZEN.has(set.name) ? ', frozen' : ', tuned on'})` : `generated (templates, seed ${options.seed})`;
    const meta = { set: label, model: server.config.assistantModel, today: venue.today, timeZone: venue.timeZone, now: DateTime.now().setZone(venue.timeZone).toISO(), soldOut, setupMs, runMs: Date.now() - started };
    console.log(report(results, meta, options, set ? SET_CATEGORIES : CATEGORIES, SET_LANGUAGES));
    console.log(`\n(${Math.round((Date.now() - started) / 1000)} s in all)`);
    if (options.json) {
      await fs.writeFile(options.json, JSON.stringify({ seed: options.seed, ...meta, results }, null, 2));
      console.log(`results written to ${options.json}`);
    }
  } finally {
    await server.close();
    await closeTestDatabase();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
