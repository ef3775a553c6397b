import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sources } from '../helpers/sources.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MODULES = path.join(ROOT, 'server/modules');
const PLATFORM_MODELS = path.join(ROOT, 'server/platform/db/models.ts');

/**
 * Issue 33 item 3: each table is written by one module only, the module whose `models.ts` declares it
 * (`static tableName = '…'`), through its commands and its queries.ts. Another module that needs a row written asks
 * the owner: a function exported through the owner's index.ts when the owner comes earlier in the declared module
 * order, a typed domain event the owner subscribes to when it comes later. The platform's tables
 * (server/platform/db/models.ts) belong to the platform; pg-boss's and knex's own tables belong to no module.
 *
 * The detector reads the source (comments stripped) for three kinds of write:
 *  - knex's builder on a named table — `knex('t')`, `trx('t')`, `.from('t')`, `.into('t')`, `.table('t')` — whose
 *    chain goes on to `.insert(`, `.update(`, `.del(`, `.delete(`, `.merge(`, `.onConflict(`, `.increment(`,
 *    `.decrement(`;
 *  - objection's writes through a model — `Model.query(…)` followed in the chain by `.insert`, `.insertAndFetch`,
 *    `.patch`, `.patchAndFetchById`, `.update`, `.updateAndFetchById`, `.delete`, `.deleteById`, `.upsertGraph`…, or
 *    `Model.relatedQuery(…)…insert(` — the model's name resolved through the file's imports to the module whose
 *    models.ts declares it;
 *  - raw SQL: `insert into t`, `update t set`, `delete from t`, `truncate t`.
 * A write through a model instance (`row.$query(trx).patch(…)`) is not followed: its class is not in the text.
 */

/** Writes allowed outside the owner, each with its reason. Nothing else belongs here. */
const EXCEPTIONS: readonly { module: string; table: string; reason: string }[] = [];

type Owner = { module: string; file: string };

/** The text with its comments blanked out (strings, template literals and regular code kept as they are). */
export function stripComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** The index just after the parenthesis that closes the one opened at `open`. */
function closeParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    const c = text[i];
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

/** The names of the methods called in the chain that goes on at `from` (`.where(…).update(…)` → where, update). */
function chainAfter(text: string, from: number): string[] {
  const calls: string[] = [];
  let i = from;
  for (;;) {
    const m = /^[\s!]*\??\.\s*([A-Za-z_$][\w$]*)\s*(?:<[^<>()]*>)?\s*(\()?/.exec(text.slice(i, i + 400));
    if (!m) return calls;
    calls.push(m[1]);
    i += m[0].length;
    if (m[2]) i = closeParen(text, i - 1);
  }
}

const KNEX_WRITES = new Set(['insert', 'update', 'del', 'delete', 'merge', 'onConflict', 'increment', 'decrement', 'upsert', 'truncate']);
const MODEL_WRITES = new Set([
  'insert',
  'insertAndFetch',
  'insertGraph',
  'insertGraphAndFetch',
  'patch',
  'patchAndFetch',
  'patchAndFetchById',
  'update',
  'updateAndFetch',
  'updateAndFetchById',
  'delete',
  'deleteById',
  'upsertGraph',
  'upsertGraphAndFetch',
  'relate',
  'unrelate',
  'increment',
  'decrement',
  'onConflict',
  'merge',
]);

/** Which model class names `file` can use, by local name → the name it is exported under. */
function importedNames(text: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"][^'"]+['"]/g)) {
    for (const part of m[1].split(',')) {
      const [exported, local] = part.replace(/\btype\s+/, '').trim().split(/\s+as\s+/);
      if (exported) names.set((local ?? exported).trim(), exported.trim());
    }
  }
  return names;
}

/** A write found in a source text: the table and the line it starts on. */
type Write = { table: string; line: number; how: string };

/**
 * Every write in `text` to a table in `tables` (the owners' map); `models` maps a model class name to its table.
 * Model names are resolved through the file's imports (or its own classes, in a models.ts).
 */
export function writesIn(text: string, tables: ReadonlySet<string>, models: ReadonlyMap<string, string>): Write[] {
  const code = stripComments(text);
  const lineOf = (index: number) => code.slice(0, index).split('\n').length;
  const found: Write[] = [];
  const imported = importedNames(code);
  const local = new Set([...code.matchAll(/\bclass\s+(\w+)/g)].map((m) => m[1]));

  // knex's builder on a named table: knex('t') / trx<Row>('t as x') / .from('t') / .into('t') / .table('t')
  for (const m of code.matchAll(/([\w$.]*\w)\s*(?:<[^<>()]*>)?\(\s*(['"`])(\w+)(?:\s+as\s+\w+)?\2\s*\)/g)) {
    const table = m[3];
    if (!tables.has(table)) continue;
    const callee = m[1].split('.').pop()!;
    const isBuilder = ['from', 'into', 'table', 'withSchema'].includes(callee) || !m[1].includes('.') || /^(?:knex|trx|db|tx|k)$/.test(callee);
    if (!isBuilder) continue;
    const write = chainAfter(code, m.index! + m[0].length).find((call) => KNEX_WRITES.has(call));
    if (write) found.push({ table, line: lineOf(m.index!), how: `${m[0]}…${write}(` });
  }

  // knex's builder on each table of a literal list: `for (const table of ['a', 'b']) await trx(table)…update(`
  const lists = new Map<string, string[]>();
  for (const m of code.matchAll(/\bconst\s+(\w+)\s*(?::[^=]+)?=\s*\[([^\]]*)\]/g)) {
    const items = [...m[2].matchAll(/['"](\w+)['"]/g)].map((item) => item[1]);
    if (items.length) lists.set(m[1], items);
  }
  for (const m of code.matchAll(/\bfor\s*\(\s*(?:const|let)\s+(\w+)\s+of\s+(\w+|\[[^\]]*\])/g)) {
    const items = m[2].startsWith('[') ? [...m[2].matchAll(/['"](\w+)['"]/g)].map((item) => item[1]) : (lists.get(m[2]) ?? []);
    const listed = items.filter((table) => tables.has(table));
    if (!listed.length) continue;
    for (const call of code.slice(m.index!).matchAll(new RegExp(`\\b\\w+\\s*\\(\\s*${m[1]}\\s*\\)`, 'g'))) {
      const write = chainAfter(code, m.index! + call.index! + call[0].length).find((name) => KNEX_WRITES.has(name));
      if (write) for (const table of listed) found.push({ table, line: lineOf(m.index! + call.index!), how: `${call[0]} over [${items.join(', ')}]…${write}(` });
    }
  }

  // objection: Model.query(…)…write(  /  Model.relatedQuery(…)…insert(
  for (const m of code.matchAll(/\b([A-Z]\w*)\s*\.\s*(query|relatedQuery)\s*\(/g)) {
    const name = imported.get(m[1]) ?? (local.has(m[1]) ? m[1] : undefined);
    const table = name === undefined ? undefined : models.get(name);
    if (table === undefined) continue;
    const chain = chainAfter(code, closeParen(code, m.index! + m[0].length - 1));
    const write = chain.find((call) => MODEL_WRITES.has(call));
    if (write && m[2] === 'query') found.push({ table, line: lineOf(m.index!), how: `${m[1]}.query(…)…${write}(` });
    if (write && m[2] === 'relatedQuery') found.push({ table: `${table} (relation)`, line: lineOf(m.index!), how: `${m[1]}.relatedQuery(…)…${write}(` });
  }

  // raw SQL
  const raw = /\binsert\s+into\s+"?(\w+)"?|\bupdate\s+"?(\w+)"?(?:\s+(?:as\s+)?\w+)?\s+set\b|\bdelete\s+from\s+"?(\w+)"?|\btruncate\s+(?:table\s+)?(?:only\s+)?"?(\w+)"?/gi;
  for (const m of code.matchAll(raw)) {
    const table = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (tables.has(table)) found.push({ table, line: lineOf(m.index!), how: m[0].replace(/\s+/g, ' ') });
  }
  return found;
}

/** table → owner, and model class → table, from every module's models.ts and the platform's. */
function owners(): { tables: Map<string, Owner>; models: Map<string, string> } {
  const tables = new Map<string, Owner>();
  const models = new Map<string, string>();
  const files = [
    ...fs
      .readdirSync(MODULES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(MODULES, entry.name, 'models.ts')))
      .map((entry) => ({ module: entry.name, file: path.join(MODULES, entry.name, 'models.ts') })),
    { module: 'platform', file: PLATFORM_MODELS },
  ];
  for (const { module, file } of files) {
    const code = stripComments(fs.readFileSync(file, 'utf8'));
    for (const m of code.matchAll(/\bclass\s+(\w+)[^{]*\{[^]*?\bstatic\s+(?:override\s+)?tableName\s*=\s*['"](\w+)['"]/g)) {
      const previous = tables.get(m[2]);
      if (previous && previous.module !== module) throw new Error(`${m[2]} is declared by ${previous.module} and ${module}`);
      tables.set(m[2], { module, file: path.relative(ROOT, file) });
      if (models.has(m[1])) throw new Error(`two model classes named ${m[1]}`);
      models.set(m[1], m[2]);
    }
  }
  return { tables, models };
}

describe('table owners: each table is written by the module that declares it (issue 33)', () => {
  const { tables, models } = owners();

  it('every table the migrations create has an owner (a module’s models.ts, or the platform’s)', () => {
    const created = new Set<string>();
    for (const file of sources(path.join(ROOT, 'migrations'))) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/createTable(?:IfNotExists)?\(\s*['"](\w+)['"]/g)) created.add(m[1]);
    }
    expect(created.size).to.be.greaterThan(10);
    expect([...created].filter((table) => !tables.has(table))).to.deep.equal([]);
  });

  it('no module writes a table another module (or the platform) owns, but for the declared exceptions', () => {
    const wrong: string[] = [];
    for (const file of sources(MODULES)) {
      const module = path.relative(MODULES, file).split(path.sep)[0];
      if (module.endsWith('.ts')) continue;
      for (const write of writesIn(fs.readFileSync(file, 'utf8'), new Set(tables.keys()), models)) {
        const owner = tables.get(write.table.split(' ')[0])!.module;
        if (owner === module) continue;
        if (EXCEPTIONS.some((e) => e.module === module && e.table === write.table)) continue;
        wrong.push(`${module} writes ${write.table} (owner ${owner}): ${path.relative(ROOT, file)}:${write.line} ${write.how}`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it('the platform and the domain write only the platform’s tables: a module’s rows are written by the module', () => {
    const wrong: string[] = [];
    for (const layer of ['server/platform', 'server/domain']) {
      for (const file of sources(path.join(ROOT, layer))) {
        for (const write of writesIn(fs.readFileSync(file, 'utf8'), new Set(tables.keys()), models)) {
          const owner = tables.get(write.table.split(' ')[0])!.module;
          if (owner !== 'platform') wrong.push(`${layer} writes ${write.table} (owner ${owner}): ${path.relative(ROOT, file)}:${write.line} ${write.how}`);
        }
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it('each exception is still needed, and names a reason', () => {
    for (const exception of EXCEPTIONS) {
      expect(exception.reason.trim(), `${exception.module} → ${exception.table}`).to.not.equal('');
      const needed = sources(path.join(MODULES, exception.module)).some((file) =>
        writesIn(fs.readFileSync(file, 'utf8'), new Set(tables.keys()), models).some((write) => write.table === exception.table),
      );
      expect(needed, `${exception.module} → ${exception.table} is no longer written: drop the exception`).to.equal(true);
    }
  });

  it('the detector catches each kind of write, and not a read', () => {
    const known = new Set(['reservations', 'payments']);
    const classes = new Map([['Reservation', 'reservations']]);
    const tablesOf = (text: string) => writesIn(text, known, classes).map((write) => write.table);
    const importing = "import { Reservation as Booking } from '../booking/index.js';\n";
    for (const text of [
      "await trx('reservations').where({ id }).update({ status: 'CHECKED_IN' });",
      "await knex('reservations as r')\n  .where('r.id', id)\n  .del();",
      "await trx<Row>('reservations').insert(row).returning('*');",
      "await trx.from('reservations').where((q) => { q.where('a', 1); }).delete();",
      "await trx.into('reservations').insert(rows).onConflict('id').merge();",
      "await knex.table('reservations').where({ id }).increment('party_size', 1);",
      "await trx('reservations').where({ id }).decrement('party_size', 1);",
      "await trx('reservations').insert(row).onConflict('id').ignore();",
      "import { Reservation } from '../booking/models.js';\nawait Reservation.query(trx).findById(id).patch({ status });",
      `${importing}await Booking.query(trx).insertAndFetch({ status });`,
      `${importing}await Booking.query(trx).patchAndFetchById(id, { status });`,
      `${importing}await Booking.query(trx).updateAndFetchById(id, row);`,
      `${importing}await Booking.query(trx).where({ id }).update(row);`,
      `${importing}await Booking.query(trx).deleteById(id);`,
      `${importing}await Booking.query(trx).where({ id }).delete();`,
      `${importing}await Booking.query(trx).upsertGraph(graph);`,
      `${importing}await Booking.relatedQuery('payments', trx).for(id).insert(row);`,
      "await trx.raw('INSERT INTO reservations (id) VALUES (?)', [id]);",
      'await trx.raw(`update reservations r set status = ? where id = ?`, [status, id]);',
      "await trx.raw('delete from \"reservations\" where id = ?', [id]);",
      "await knex.raw('TRUNCATE TABLE reservations CASCADE');",
      "const OWNED = ['reservations', 'payments'] as const;\nfor (const table of OWNED) await trx(table).where({ customer_id: a }).update({ customer_id: b });",
    ]) {
      expect(tablesOf(text), text).to.have.length.greaterThan(0);
    }
    for (const text of [
      "await trx('reservations').where({ id }).first('status');",
      "await trx('reservations').select('id').whereIn('id', trx('payments').select('reservation_id'));",
      "import { Reservation } from '../booking/models.js';\nawait Reservation.query(trx).findById(id);",
      "// trx('reservations').update({ status })\nawait trx('reservations').first();",
      "createHash('sha256').update(body);",
      "await trx.raw('select * from reservations where id = ?', [id]);",
    ]) {
      expect(tablesOf(text), text).to.deep.equal([]);
    }
  });
});
