import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';

/**
 * A fresh PostgreSQL database of a test's own, on the server the run's DATABASE_URL names (CI's, or the local
 * `postgres://postgres@127.0.0.1:5432/`), for specs that start server processes on it: they migrate it themselves.
 * `knex` is a plain knex over it (objection's models stay bound to the run's database); `drop()` closes it and
 * drops the database, ending what still holds connections to it.
 */
export interface ScratchDatabase {
  url: string;
  name: string;
  knex: Knex;
  drop(): Promise<void>;
}

export async function createScratchDatabase(prefix: string, base = process.env.VENUE_TEST_SHARED_DATABASE_URL ?? process.env.DATABASE_URL): Promise<ScratchDatabase> {
  if (!base) throw new Error('createScratchDatabase needs DATABASE_URL');
  const name = `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`.toLowerCase();
  const url = new URL(base);
  url.pathname = '/postgres';
  const admin = knexFactory({ client: 'pg', connection: url.toString(), pool: { min: 0, max: 1 } });
  try {
    await admin.raw('create database ??', [name]);
  } finally {
    await admin.destroy();
  }
  url.pathname = `/${name}`;
  const knex = knexFactory({ client: 'pg', connection: url.toString(), pool: { min: 0, max: 3 } });
  return {
    url: url.toString(),
    name,
    knex,
    async drop() {
      await knex.destroy();
      const again = new URL(base);
      again.pathname = '/postgres';
      const dropper = knexFactory({ client: 'pg', connection: again.toString(), pool: { min: 0, max: 1 } });
      try {
        await dropper.raw('drop database if exists ?? with (force)', [name]);
      } finally {
        await dropper.destroy();
      }
    },
  };
}
