import type { Knex } from 'knex';

/**
 * Reading a long result in batches without holding it (issue 36 §2: a 100,000-row export streams within the memory
 * the server already uses). Each batch is its own short query that resumes after the last row of the one before
 * (keyset pagination, "seek"), so:
 * - no cursor or transaction stays open while a slow client downloads: on the embedded database, whose one
 *   connection every request shares, other requests run between two batches; on PostgreSQL no pool connection is
 *   held for the length of a download;
 * - a batch costs the same however deep into the result it is (an OFFSET would read every row before it again).
 *
 * The order must be total: its last key unique (an id). Keys are compared as the database compares them: each
 * key's value is read back as text (`::text`) and sent as an untyped parameter the database reads as the key's
 * own type, so a timestamp keeps its microseconds (a JavaScript Date would round them to milliseconds and skip
 * or repeat rows sharing a millisecond). Keys must not be null.
 */

export interface KeysetKey {
  /** A column or SQL expression, from code (never from input): `r.created_at`, `coalesce(p.succeeded_at, p.created_at)`. */
  sql: string;
  order: 'asc' | 'desc';
}

const keyAlias = (index: number) => `keyset_${index}`;

/**
 * Yields the rows of `build()` (a query with its joins, filters and selected columns, unordered) in `keys` order,
 * `batchSize` at a time; stops when a batch comes back short. Stopping the iteration early (`return()`, a
 * `for await` left by `break` or an error) runs no further query. Each row also carries the keys' text values as
 * `keyset_<n>`.
 */
export async function* keysetBatches<Row extends Record<string, unknown>>(
  knex: Knex,
  build: () => Knex.QueryBuilder,
  keys: readonly KeysetKey[],
  batchSize = 1000,
): AsyncGenerator<Row[], void, undefined> {
  if (keys.length === 0) throw new Error('keysetBatches needs at least one key');
  let after: string[] | undefined;
  for (;;) {
    const query = build()
      .select(keys.map((key, index) => knex.raw(`(${key.sql})::text as ??`, [keyAlias(index)])))
      .orderByRaw(keys.map((key) => `${key.sql} ${key.order}`).join(', '))
      .limit(batchSize);
    if (after) query.where(seek(keys, after));
    const rows = (await query) as Row[];
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1];
    after = keys.map((_, index) => String(last[keyAlias(index)]));
  }
}

/**
 * The rows after `after` in `keys` order: the first key bounded on its own (so an index on it is used), then
 * `k1 > a1 or (k1 = a1 and k2 > a2) or …`, each comparison turned round for a descending key.
 */
function seek(keys: readonly KeysetKey[], after: string[]) {
  const beyond = (key: KeysetKey) => (key.order === 'asc' ? '>' : '<');
  return (where: Knex.QueryBuilder) => {
    where.whereRaw(`${keys[0].sql} ${beyond(keys[0])}= ?`, [after[0]]);
    where.andWhere((any) => {
      keys.forEach((key, index) => {
        any.orWhere((all) => {
          for (let earlier = 0; earlier < index; earlier++) all.whereRaw(`${keys[earlier].sql} = ?`, [after[earlier]]);
          all.whereRaw(`${key.sql} ${beyond(key)} ?`, [after[index]]);
        });
      });
    });
  };
}

/**
 * Runs the first batch's query now and answers an iteration over every batch from the first on: a filter the
 * database refuses, or a bad one found while the query is built, fails the request with its problem before a byte
 * of the export is sent (afterwards an error can only cut the download short).
 */
export async function primed<T>(batches: AsyncGenerator<T[], void, undefined>): Promise<AsyncGenerator<T[], void, undefined>> {
  const first = await batches.next();
  return (async function* () {
    try {
      if (first.done) return;
      yield first.value;
      yield* batches;
    } finally {
      await batches.return(undefined);
    }
  })();
}
