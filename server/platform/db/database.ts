import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import { Model } from 'objection';
import type { PGlite as PGliteInstance } from '@electric-sql/pglite';
import type { Config } from '../config.ts';
import { migrationSource } from './migrations.ts';

/**
 * knex-pglite names a delete's command `DEL` (from knex's method `del`), so knex returns the raw result
 * instead of the affected-row count it returns on pg. Presenting the method as `delete` restores the count.
 */
class EmbeddedClient extends (ClientPgLite as unknown as new (config: Knex.Config) => { processResponse(obj: { method?: string }, runner: unknown): unknown }) {
  override processResponse(obj: { method?: string }, runner: unknown): unknown {
    return super.processResponse(obj.method === 'del' ? { ...obj, method: 'delete' } : obj, runner);
  }
}

export type DatabaseKind = 'postgres' | 'embedded';

/** The most connections a process's PostgreSQL pool opens (the embedded database has one). */
export const POSTGRES_POOL_MAX = 10;

/** How many connections `db`'s pool may hold at once: what priming opens and warms. */
export function poolSize(db: Pick<Database, 'kind'>): number {
  return db.kind === 'postgres' ? POSTGRES_POOL_MAX : 1;
}

export interface Database {
  knex: Knex;
  kind: DatabaseKind;
  /** Embedded: the instance server/start.js began opening while the app's code loaded. */
  openedEarly?: boolean;
  close(): Promise<void>;
}

/**
 * `DATABASE_URL` set → PostgreSQL through pg; unset → embedded PGlite in `<dataDir>/pgdata`
 * (`memory` keeps it in memory, used by tests). Objection models are bound to this knex.
 */
export function openDatabase(options: { databaseUrl?: string; dataDir?: string | 'memory'; poolMin?: number }): Database {
  let knex: Knex;
  let kind: DatabaseKind;
  let early: PGliteInstance | undefined;
  if (options.databaseUrl) {
    kind = 'postgres';
    knex = knexFactory({
      client: 'pg',
      connection: options.databaseUrl,
      // `min` connections stay open however idle (DATABASE_POOL_MIN; the rest close after 30 s idle, tarn's default).
      pool: { min: options.poolMin ?? 0, max: POSTGRES_POOL_MAX },
      // A request waits at most this long for a connection (knex's default: 60 s). While PostgreSQL is away (a
      // restart) requests then fail within seconds instead of piling up for a minute; once it is back, new
      // connections are made as they are needed.
      acquireConnectionTimeout: 10_000,
      migrations: { migrationSource },
    });
  } else {
    kind = 'embedded';
    const dataDir = options.dataDir ?? 'memory';
    const pgdata = dataDir === 'memory' ? undefined : path.join(dataDir, 'pgdata');
    if (pgdata) fs.mkdirSync(pgdata, { recursive: true });
    early = pgdata ? openedEarly(pgdata) : undefined;
    knex = knexFactory({
      client: EmbeddedClient as unknown as typeof knexFactory.Client,
      dialect: 'postgres',
      connection: (early ? { pglite: early } : pgdata ? { filename: pgdata } : {}) as Knex.StaticConnectionConfig,
      migrations: { migrationSource },
    });
  }
  Model.knex(knex);
  return { knex, kind, ...(early ? { openedEarly: true } : {}), close: () => knex.destroy() };
}

/**
 * The PGlite instance server/start.js began opening on `pgdata` while the app's code loaded (taken once); one it
 * opened on another directory is closed.
 */
function openedEarly(pgdata: string): PGliteInstance | undefined {
  const holder = globalThis as { __venueEarlyPglite?: { pgdata: string; db: PGliteInstance } };
  const early = holder.__venueEarlyPglite;
  if (!early) return undefined;
  delete holder.__venueEarlyPglite;
  if (path.resolve(early.pgdata) === path.resolve(pgdata)) return early.db;
  void early.db.close().catch(() => undefined);
  return undefined;
}

export function openConfiguredDatabase(config: Config): Database {
  return openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMin: config.databasePoolMin });
}
