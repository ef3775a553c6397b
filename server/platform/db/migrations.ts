import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../migrations');

interface MigrationModule {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Reads `migrations/*.ts` (timestamp-named) through ESM import, the same on PostgreSQL and PGlite. */
export const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    return fs
      .readdirSync(MIGRATIONS_DIR)
      .filter((name) => /^\d{14}_[\w-]+\.ts$/.test(name))
      .sort();
  },
  getMigrationName(name) {
    return name.replace(/\.ts$/, '');
  },
  async getMigration(name) {
    return (await importTypeScript(pathToFileURL(path.join(MIGRATIONS_DIR, name)).href)) as MigrationModule;
  },
};

/**
 * Imports a `.ts` file. Started from the build (server/start.js, `.build/main.js`) Node has no TypeScript loader:
 * the migrations are then the only TypeScript left to load, and only when there are some to apply (a first start,
 * an upgrade). tsx is registered for them at that moment, not on every start.
 */
async function importTypeScript(url: string): Promise<unknown> {
  try {
    return await import(url);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
    const loader = 'tsx'; // registers tsx's hooks (as `node --import tsx`); a name, not a typed import
    await import(loader);
    // Node keeps the failed import of this URL: the same file under another URL is imported afresh.
    return import(`${url}?loader=tsx`);
  }
}

export async function migrateLatest(knex: Knex): Promise<{ applied: string[]; current: string[] }> {
  // Nothing to apply (every start but the first and an upgrade's): one read instead of knex's migration run
  // (lock table, listing twice), which took 150 ms of each start on the embedded database.
  const upToDate = await appliedWhenUpToDate(knex);
  if (upToDate) return { applied: [], current: upToDate };
  const [, applied] = (await knex.migrate.latest()) as [number, string[]];
  return { applied: applied.map(stripExt), current: await appliedMigrations(knex) };
}

/**
 * `migrateLatest` by one process at a time: on PostgreSQL, under a session advisory lock held on a connection of its
 * own, so processes starting together on one database wait for the first to migrate rather than fail on knex's
 * migration lock; each then finds nothing left to apply. The embedded database has one process anyway.
 */
export async function migrateLatestExclusive(db: { knex: Knex; kind: 'postgres' | 'embedded' }): Promise<{ applied: string[]; current: string[] }> {
  if (db.kind !== 'postgres') return migrateLatest(db.knex);
  const client = db.knex.client as { acquireConnection(): Promise<{ query(text: string): Promise<unknown> }>; releaseConnection(c: unknown): Promise<void> };
  const connection = await client.acquireConnection();
  try {
    await connection.query(`select pg_advisory_lock(hashtext('${MIGRATION_LOCK}'))`);
    try {
      return await migrateLatest(db.knex);
    } finally {
      await connection.query(`select pg_advisory_unlock(hashtext('${MIGRATION_LOCK}'))`).catch(() => undefined);
    }
  } finally {
    await client.releaseConnection(connection);
  }
}

/** The advisory lock's name (hashed to its key). */
const MIGRATION_LOCK = 'venue.migrations';

/**
 * The applied migrations when they are exactly the files of migrations/, in order, and no migration is running;
 * undefined otherwise (no migrations table yet, a migration to apply, one applied that is no longer there, a lock
 * held): then knex's own run decides, with its checks and its errors.
 */
async function appliedWhenUpToDate(knex: Knex): Promise<string[] | undefined> {
  const files = (await migrationSource.getMigrations([])).map(stripExt);
  let rows: Array<{ name: string }>;
  try {
    const [applied, lock] = await Promise.all([
      knex('knex_migrations').select('name').orderBy('id'),
      knex('knex_migrations_lock').select('is_locked'),
    ]);
    if ((lock as Array<{ is_locked: number }>).some((row) => row.is_locked)) return undefined;
    rows = applied as Array<{ name: string }>;
  } catch {
    return undefined;
  }
  if (rows.length !== files.length) return undefined;
  const names = rows.map((row) => stripExt(row.name));
  const sorted = [...names].sort();
  if (sorted.some((name, index) => name !== files[index])) return undefined;
  return names;
}

export async function appliedMigrations(knex: Knex): Promise<string[]> {
  const [completed] = (await knex.migrate.list()) as [Array<{ name: string }>, unknown[]];
  return completed.map((row) => stripExt(row.name));
}

export async function rollbackAll(knex: Knex): Promise<string[]> {
  const [, rolledBack] = (await knex.migrate.rollback(undefined, true)) as [number, string[]];
  return rolledBack.map(stripExt);
}

function stripExt(name: string): string {
  return name.replace(/\.ts$/, '');
}
