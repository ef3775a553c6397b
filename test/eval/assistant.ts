/**
 * `npm run eval:assistant` — the assistant measured, not asserted (issue 24).
 *
 * Starts the app on an in-memory PGlite database with the demo venue seeded (as the assistant's specs do), reads
 * the venue through the assistant-safe routes, generates the question set from it (./questions.ts, seeded),
 * asks each question through `POST /llm/chat` as the website would (UI messages, SSE), times the first text and
 * the end of the stream, grades each answer (./checks.ts) and prints accuracy per category and per language, the
 * latencies and the failures. It measures and never gates: the exit code is 0 unless the run itself crashed.
 *
 *   npm run eval:assistant -- [--seed N] [--verbose] [--json results.json] [--only category,category]
 */
import fs from 'node:fs/promises';
import { closeTestDatabase } from '../helpers/database.ts';
import { SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { SITE, startAssistantServer } from '../modules/assistant/demoVenue.ts';
import { chat, userMessage, type UiMessage } from './chat.ts';
import { fail, languageIs, linksValid, ok, type Verdict } from './checks.ts';
import { CATEGORIES, DEFAULT_COUNTS, generateQuestions, LANGUAGES, type Category, type Question } from './questions.ts';
import { readVenue, soldOutOne, type Venue } from './venue.ts';

interface Options {
  seed: number;
  verbose: boolean;
  json?: string;
  only?: Category[];
}

function parseArgs(argv: string[]): Options {
  const options: Options = { seed: 24, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--seed') options.seed = Number(argv[++i]);
    else if (arg.startsWith('--seed=')) options.seed = Number(arg.slice(7));
    else if (arg === '--verbose' || arg === '-v') options.verbose = true;
    else if (arg === '--json') options.json = argv[++i];
    else if (arg.startsWith('--json=')) options.json = arg.slice(7);
    else if (arg === '--only') options.only = argv[++i].split(',') as Category[];
    else if (arg === '--help' || arg === '-h') {
      console.log('npm run eval:assistant -- [--seed N] [--verbose] [--json file] [--only category,…]');
      process.exit(0);
    } else throw new Error(`unknown option ${arg}`);
  }
  if (!Number.isInteger(options.seed)) throw new Error('--seed takes an integer');
  for (const category of options.only ?? []) if (!CATEGORIES.includes(category)) throw new Error(`unknown category ${category} (one of ${CATEGORIES.join(', ')})`);
  return options;
}

interface TurnResult {
  text: string;
  answer: string;
  firstTextMs?: number;
  endMs: number;
  graded: boolean;
  verdict?: Verdict;
  tools: string[];
}

interface Result {
  id: string;
  category: Category;
  kind: string;
  language: Question['language'];
  locale: string;
  pass: boolean;
  reason: string;
  turns: TurnResult[];
}

/** Checks every answer gets: it came, it is in the guest's language, its links are the site's. */
function baseline(question: Question, venue: Venue, answer: { status: number; text: string; error?: string }): Verdict {
  if (answer.error) return fail(answer.error);
  if (!answer.text.trim()) return fail('empty answer');
  const links = linksValid(answer.text, venue);
  if (!links.pass) return links;
  return languageIs(answer.text, question.answerLanguage, venue);
}

async function ask(server: TestServer, venue: Venue, question: Question): Promise<Result> {
  const messages: UiMessage[] = [];
  const turns: TurnResult[] = [];
  let verdict: Verdict = ok;
  for (const [index, turn] of question.turns.entries()) {
    messages.push(userMessage(turn.text, `${question.id}-u${index + 1}`));
    const answer = await chat(server.baseUrl, messages, question.locale, question.id);
    messages.push(answer.message);
    const tools = answer.chunks.filter((chunk) => chunk.type === 'tool-input-available').map((chunk) => String(chunk.toolName));
    const result: TurnResult = { text: turn.text, answer: answer.text, firstTextMs: answer.firstTextMs, endMs: answer.endMs, graded: Boolean(turn.check), tools };
    if (turn.check) {
      const base = baseline(question, venue, answer);
      result.verdict = base.pass ? turn.check(answer.text) : base;
      if (!result.verdict.pass && verdict.pass) verdict = { pass: false, reason: question.turns.length > 1 ? `turn ${index + 1}: ${result.verdict.reason}` : result.verdict.reason };
    } else if (answer.error) {
      verdict = fail(`turn ${index + 1}: ${answer.error}`);
    }
    turns.push(result);
  }
  return { id: question.id, category: question.category, kind: question.kind, language: question.language, locale: question.locale, pass: verdict.pass, reason: verdict.reason, turns };
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

function report(results: Result[], options: Options, meta: Record<string, unknown>): string {
  const lines: string[] = [];
  const group = <K extends string>(keys: readonly K[], key: (result: Result) => K) =>
    keys.map((name) => {
      const mine = results.filter((result) => key(result) === name);
      const passed = mine.filter((result) => result.pass).length;
      return [name, `${passed}/${mine.length}`, pct(passed, mine.length)];
    });
  lines.push(`assistant evaluation — seed ${options.seed}, ${results.length} questions (${results.reduce((n, r) => n + r.turns.length, 0)} /llm/chat turns), model ${meta.model}, today ${meta.today} (${meta.timeZone})`);
  lines.push('');
  lines.push(table([['category', 'passed', 'accuracy'], ...group(CATEGORIES, (r) => r.category).filter((row) => row[1] !== '0/0')]));
  lines.push('');
  lines.push(table([['language', 'passed', 'accuracy'], ...group(LANGUAGES, (r) => r.language)]));
  const passed = results.filter((result) => result.pass).length;
  lines.push('');
  lines.push(`overall: ${passed}/${results.length} (${pct(passed, results.length)})`);
  const turns = results.flatMap((result) => result.turns);
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
    const graded = result.turns.filter((turn) => turn.graded && turn.verdict && !turn.verdict.pass)[0] ?? result.turns.at(-1)!;
    const asked = result.turns.map((turn) => turn.text).join(' → ');
    lines.push(`- [${result.category}${result.kind && !result.kind.startsWith('phrasing') ? ` / ${result.kind}` : ''} · ${result.language}] ${asked}`);
    lines.push(`    why: ${result.reason}`);
    lines.push(`    answer: ${JSON.stringify(graded.answer.slice(0, 200))}${graded.tools.length ? `  (tools: ${graded.tools.join(', ')})` : ''}`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const started = Date.now();
  // The website's chat is rate limited per address; the evaluation is one address asking a few hundred times.
  const server = await startAssistantServer({ llmChatRateLimitPerMinute: 100_000 });
  try {
    const soldOut = await soldOutOne(server, SUPERUSER_TOKEN);
    const venue = await readVenue(server, SITE);
    venue.soldOut = soldOut;
    const counts = { ...DEFAULT_COUNTS };
    if (options.only) for (const category of CATEGORIES) if (!options.only.includes(category)) counts[category] = 0;
    const questions = await generateQuestions(venue, options.seed, counts);
    const setupMs = Date.now() - started;
    process.stderr.write(`${questions.length} questions generated (seed ${options.seed}, set-up ${setupMs} ms); asking…\n`);
    const results: Result[] = [];
    for (const [index, question] of questions.entries()) {
      results.push(await ask(server, venue, question));
      if ((index + 1) % 25 === 0) process.stderr.write(`  ${index + 1}/${questions.length}\n`);
    }
    const meta = { model: server.config.assistantModel, today: venue.today, timeZone: venue.timeZone, soldOut, setupMs, runMs: Date.now() - started };
    console.log(report(results, options, meta));
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
