import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Model } from 'objection';
import { openDatabase, type Database } from './database.ts';
import { MIGRATIONS_DIR, migrateLatest, migrationSource } from './migrations.ts';

/**
 * The embedded database's first start from a template (issue 25 §1: a first start under 5 s).
 *
 * A fresh PGlite data directory costs an initdb (3–4 s of CPU in WebAssembly on the 2-core machine) and every
 * migration (1–2 s). `npm run build` (run by `npm ci` through `prepare`) does both once, into
 * `.build/pgdata-template/`, and records what the template was made from: the PGlite release and every migration
 * file's name and content. A start whose `<DATA_DIR>/pgdata` holds no database copies the template there instead of
 * running initdb, when the record still matches; the migrations then find nothing to apply. Anything else (no
 * build, a migration added or edited since, another PGlite) starts as before: initdb and the migrations, slower and
 * never wrong.
 *
 * The template holds the schema, the two rows the migrations insert (the canonical organization, the one-row
 * commercial setup) and the job engine's schema and queues; no secret, account or venue data: those are made on the first start as before.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const TEMPLATE_DIR = path.join(ROOT, '.build', 'pgdata-template');
const RECORD = 'template.json';

interface TemplateRecord {
  digest: string;
  pglite: string;
  migrations: string[];
}

/** The PGlite release installed (its package.json, found beside the module Node resolves). */
function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  let dir = path.dirname(entry);
  while (dir !== path.dirname(dir)) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const pkg = JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite') return pkg.version ?? 'unknown';
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}

/** What a template made now would be made from: the PGlite release and the migration files, by content. */
async function currentRecord(): Promise<TemplateRecord> {
  const migrations = await migrationSource.getMigrations([]);
  const pglite = pgliteVersion();
  const hash = createHash('sha256').update(`pglite ${pglite}\n`);
  for (const name of migrations) hash.update(`${name}\n`).update(fs.readFileSync(path.join(MIGRATIONS_DIR, name))).update('\n');
  return { digest: hash.digest('hex'), pglite, migrations };
}

/** A data directory holds a database once PostgreSQL's PG_VERSION file is in it. */
export function holdsDatabase(pgdata: string): boolean {
  return fs.existsSync(path.join(pgdata, 'PG_VERSION'));
}

/**
 * Copies the template into `pgdata` when `pgdata` holds no database and the template matches the installed PGlite
 * and the migration files. Returns why it did not, or undefined when it did.
 */
export async function startFromTemplate(pgdata: string, templateDir = TEMPLATE_DIR): Promise<string | undefined> {
  if (holdsDatabase(pgdata)) return 'the data directory holds a database';
  if (fs.existsSync(pgdata) && fs.readdirSync(pgdata).length) return 'the data directory is not empty';
  let record: TemplateRecord;
  try {
    record = JSON.parse(fs.readFileSync(path.join(templateDir, RECORD), 'utf8')) as TemplateRecord;
  } catch {
    return 'no template (npm run build makes one)';
  }
  const current = await currentRecord();
  if (record.digest !== current.digest) return 'the template was made from other migrations or another PGlite';
  // Copied beside the target and renamed into place: a start stopped half-way leaves no half database behind.
  const staging = `${pgdata}.template-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.cpSync(path.join(templateDir, 'pgdata'), staging, { recursive: true });
  fs.rmSync(pgdata, { recursive: true, force: true });
  fs.renameSync(staging, pgdata);
  return undefined;
}

/**
 * Makes the template in `outDir` (`npm run build`): a fresh PGlite data directory with every migration applied,
 * then `prepare`'s work, closed cleanly, and the record of what it was made from.
 */
export async function buildTemplate(outDir: string, options: { prepare?: (db: Database) => Promise<void> } = {}): Promise<{ migrations: number; ms: number }> {
  const started = performance.now();
  const previous = Model.knex();
  const record = await currentRecord();
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const db = openDatabase({ dataDir: outDir });
  try {
    await migrateLatest(db.knex);
    // What else a first start would make before it answers (the build declares the job engine's schema and queues).
    await options.prepare?.(db);
    // A clean shutdown of the data directory: nothing left to recover on the copy's first open.
    await db.knex.raw('checkpoint');
  } finally {
    await db.close();
    // openDatabase binds objection's models to its knex: hand them back to whatever they were bound to.
    if (previous) Model.knex(previous);
  }
  fs.writeFileSync(path.join(outDir, RECORD), `${JSON.stringify(record)}\n`);
  return { migrations: record.migrations.length, ms: Math.round(performance.now() - started) };
}
