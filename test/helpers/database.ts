import type { Knex } from 'knex';
import { openDatabase, type Database } from '../../server/platform/db/database.ts';
import { migrateLatest } from '../../server/platform/db/migrations.ts';
import { forgetSealingKeys } from '../../server/platform/auth/tokens.ts';

// Kept on globalThis: a spec loaded as an ES module and one loaded through require get two copies of this
// module, and both must share one database (objection's models are bound to the last one opened).
const holder = globalThis as { __venueTestDatabase?: Promise<Database> };

/**
 * One database per test run: in-memory PGlite by default, the PostgreSQL database named by DATABASE_URL when
 * set (CI creates a fresh one per run). Migrated once; `resetData` empties it between spec files.
 */
export function testDatabase(): Promise<Database> {
  holder.__venueTestDatabase ??= (async () => {
    await createWorkerDatabase();
    const db = openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: 'memory' });
    await migrateLatest(db.knex);
    return db;
  })();
  return holder.__venueTestDatabase;
}

/**
 * Parallel runs on PostgreSQL (`npm test` runs its spec files in worker processes): each worker gets a database of
 * its own beside the one DATABASE_URL names (`<name>_w<worker id>`, made afresh), so one worker emptying its
 * tables between spec files never touches another's. `process.env.DATABASE_URL` names the worker's database from
 * the moment this file loads (test/helpers/hooks.ts requires it), so anything a spec starts with it (a second
 * server process) shares the worker's data. PGlite needs none of this: each worker has its own in-memory database.
 */
const WORKER = process.env.MOCHA_WORKER_ID;
const SHARED_URL = process.env.VENUE_TEST_SHARED_DATABASE_URL ?? process.env.DATABASE_URL;
if (WORKER !== undefined && SHARED_URL) {
  const url = new URL(SHARED_URL);
  const name = `${decodeURIComponent(url.pathname.slice(1))}_w${WORKER}`;
  url.pathname = `/${encodeURIComponent(name)}`;
  process.env.VENUE_TEST_SHARED_DATABASE_URL = SHARED_URL;
  process.env.DATABASE_URL = url.toString();
}

async function createWorkerDatabase(): Promise<void> {
  const shared = process.env.VENUE_TEST_SHARED_DATABASE_URL;
  if (WORKER === undefined || !shared || !process.env.DATABASE_URL) return;
  const name = decodeURIComponent(new URL(process.env.DATABASE_URL).pathname.slice(1));
  const admin = openDatabase({ databaseUrl: shared });
  try {
    await admin.knex.raw('drop database if exists ?? with (force)', [name]);
    await admin.knex.raw('create database ??', [name]);
  } finally {
    await admin.close();
  }
}

/**
 * Every table emptied but the migration bookkeeping; the canonical organization (migration data) kept, the
 * commercial setup back to its defaults. The job
 * engine's jobs (schema `pgboss`, out of current_schema) are emptied too; its queues are kept: they are
 * declarations the engines create or update at start, and a queue's jobs live in a partition it owns.
 */
export async function resetData(knex: Knex): Promise<void> {
  const { rows } = (await knex.raw(
    "select tablename from pg_tables where schemaname = current_schema() and tablename not like 'knex_migrations%' and tablename <> 'organizations'",
  )) as { rows: Array<{ tablename: string }> };
  if (rows.length) await knex.raw(`truncate ${rows.map((r) => `"${r.tablename}"`).join(', ')} cascade`);
  // The database's sealing keys went with the truncate: a key kept in memory would seal what no row opens.
  forgetSealingKeys(knex);
  await knex('organizations').where('canonical', false).delete();
  // The one-row commercial setup is migration data too: back to its column defaults.
  await knex('commercial_setup').insert({ id: 1 });
  const { rows: boss } = (await knex.raw("select to_regclass('pgboss.job') is not null as installed")) as { rows: Array<{ installed: boolean }> };
  if (boss[0].installed) await knex.raw('truncate pgboss.job, pgboss.archive');
}

/** Closes the run's database, if one was opened (the root hook in test/helpers/hooks.ts, after every spec). */
export async function closeTestDatabase(): Promise<void> {
  const opened = holder.__venueTestDatabase;
  holder.__venueTestDatabase = undefined;
  if (opened) await (await opened).close();
}
