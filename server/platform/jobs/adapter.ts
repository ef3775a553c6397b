import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import type pg from 'pg';

/** The connection object knex hands out: a PGlite instance (embedded) or a pg client (PostgreSQL). */
interface RawConnection {
  query(text: string | { name: string; text: string; values?: unknown[] }, values?: unknown[]): Promise<{ rows: unknown[] } | Array<{ rows: unknown[] }>>;
  /** PGlite only: runs a script of several statements (no parameters). */
  exec?(text: string): Promise<Array<{ rows: unknown[]; fields?: unknown[] }>>;
  /** PGlite only. */
  isInTransaction?(): boolean;
}

/**
 * Counts the statements under way, so a shutdown can wait for the ones pg-boss does not await itself (it
 * completes and fails jobs without awaiting) before the database goes away. After `close()` a statement is
 * answered with no rows instead of reaching a closed database: pg-boss's own pool adapter does the same.
 */
export class StatementTracker {
  private pending = new Set<Promise<unknown>>();
  closed = false;

  get size(): number {
    return this.pending.size;
  }

  track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    const forget = () => this.pending.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  /** Resolves once nothing is under way (statements started meanwhile included), or after `timeoutMs`. */
  async drain(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending.size) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await Promise.race([Promise.allSettled([...this.pending]), new Promise((resolve) => setTimeout(resolve, left).unref())]);
    }
    return true;
  }
}

function lastResult(result: { rows: unknown[] } | Array<{ rows: unknown[]; fields?: unknown[] }>): { rows: unknown[] } {
  if (!Array.isArray(result)) return result;
  // A script answers one result per statement; the last one that returns rows is the script's answer.
  for (let i = result.length - 1; i >= 0; i--) if (result[i].fields?.length || result[i].rows?.length) return result[i];
  return result[result.length - 1] ?? { rows: [] };
}

const names = new Map<string, string>();

/**
 * A parameterized statement for pg as a named prepared statement: parsed and planned once per connection rather
 * than on every call (pg-boss's statements are a fixed set of texts, each run thousands of times; its job insert
 * is the larger part of a queued job's cost). pg keeps the names it prepared per connection; a text maps to one
 * name (its SHA-1). A statement without parameters (a script of several) cannot be prepared and runs as it is.
 */
function prepared(text: string, values?: unknown[]): { name: string; text: string; values?: unknown[] } | string {
  if (!values?.length) return text;
  let name = names.get(text);
  if (!name) {
    if (names.size >= 1000) names.clear();
    names.set(text, (name = `pgboss_${createHash('sha1').update(text).digest('hex')}`));
  }
  return { name, text, values };
}

/**
 * pg-boss's `db` option over a knex instance or an open knex transaction: pg-boss's SQL runs on a connection
 * borrowed from knex (`client.acquireConnection()` / `releaseConnection()`).
 *
 * - Over a transaction (`trx`), knex's transaction client hands out the transaction's own connection, so a
 *   job inserted with `{ db: knexAdapter(trx) }` commits or rolls back with the rows written beside it (outbox).
 *   This is also the only way to enqueue while a transaction is open on PGlite: its single connection belongs
 *   to the transaction until it ends, and a `send()` through the shared adapter would wait for it forever.
 * - PGlite's `query()` takes one statement (with parameters); pg-boss's scripts (schema creation, maintenance
 *   under an advisory lock: `BEGIN; …; COMMIT;`) have no parameters and go through `exec()`.
 * - A script that fails half-way leaves the connection in an aborted transaction; over knex itself (never over
 *   a caller's transaction, which knex rolls back) it is rolled back before the connection goes back to knex.
 */
export function knexAdapter(knex: Knex | Knex.Transaction, tracker?: StatementTracker): PgBoss.Db {
  const client = knex.client as { acquireConnection(): Promise<RawConnection>; releaseConnection(c: RawConnection): Promise<void> };
  const ownTransaction = !(knex as Knex.Transaction).isTransaction;
  const run = async (text: string, values?: unknown[]): Promise<{ rows: any[] }> => {
    const connection = await client.acquireConnection();
    try {
      if (connection.exec) {
        // PGlite
        if (!values?.length) return lastResult(await connection.exec(text)) as { rows: any[] };
        return lastResult(await connection.query(text, values)) as { rows: any[] };
      }
      return lastResult(await connection.query(prepared(text, values))) as { rows: any[] };
    } catch (err) {
      if (ownTransaction && (connection.isInTransaction?.() ?? true)) {
        await connection.query('ROLLBACK').catch(() => undefined);
      }
      throw err;
    } finally {
      await client.releaseConnection(connection);
    }
  };
  return {
    executeSql(text, values) {
      if (!tracker) return run(text, values);
      if (tracker.closed) return Promise.resolve({ rows: [] });
      return tracker.track(run(text, values));
    },
  };
}

/**
 * pg-boss's `db` option over a pg pool the engine owns (PostgreSQL), counted for a clean shutdown. A script
 * (no parameters: `BEGIN; …; COMMIT;`) that fails half-way is rolled back before its connection returns to the
 * pool, which would otherwise hand out a connection stuck in an aborted transaction.
 */
export function poolAdapter(pool: pg.Pool, tracker: StatementTracker): PgBoss.Db {
  const run = async (text: string, values?: unknown[]): Promise<{ rows: any[] }> => {
    if (values?.length) return lastResult((await pool.query(prepared(text, values))) as never) as { rows: any[] };
    const client = await pool.connect();
    // While checked out a client has no listener of the pool's: should the server end the session (a restart of
    // PostgreSQL) between statements, its 'error' event would be unhandled and end the process.
    let broken: Error | undefined;
    const onError = (err: Error) => (broken = err);
    client.on('error', onError);
    try {
      return lastResult((await client.query(text)) as never) as { rows: any[] };
    } catch (err) {
      await client.query('ROLLBACK').catch((rollback: Error) => (broken ??= rollback));
      throw err;
    } finally {
      client.removeListener('error', onError);
      // A client whose connection failed is destroyed, not handed out again.
      client.release(broken);
    }
  };
  return {
    executeSql(text, values) {
      if (tracker.closed) return Promise.resolve({ rows: [] });
      return tracker.track(run(text, values));
    },
  };
}
