import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../migrations');

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
    return (await import(pathToFileURL(path.join(MIGRATIONS_DIR, name)).href)) as MigrationModule;
  },
};

export async function migrateLatest(knex: Knex): Promise<{ applied: string[]; current: string[] }> {
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
