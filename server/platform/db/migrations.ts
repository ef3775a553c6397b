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
