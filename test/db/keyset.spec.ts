import { expect } from 'chai';
import type { Knex } from 'knex';
import { keysetBatches, primed } from '../../server/platform/db/keyset.ts';
import { testDatabase } from '../helpers/database.ts';

/**
 * Keyset batches (server/platform/db/keyset.ts, issue 36 §2): the exports read long results a batch at a time, each
 * batch resuming after the last row of the one before. The keys are compared by the database in their own type, so
 * rows whose timestamps share a millisecond (they differ in microseconds, which a JavaScript Date drops) are neither
 * skipped nor repeated, in ascending, descending and mixed orders, and over an expression.
 */
describe('keysetBatches: a long result in batches, in a total order @db', function () {
  this.timeout(120_000);

  /** Runs `check` with a temporary table of 23 rows: `at` has runs of equal milliseconds, and ties. */
  async function withRows(check: (trx: Knex.Transaction) => Promise<void>) {
    const db = await testDatabase();
    await db.knex
      .transaction(async (trx) => {
        await trx.raw('create temporary table spec_keyset_rows (id int primary key, at timestamptz not null, late timestamptz, grp int not null) on commit drop');
        const rows = Array.from({ length: 23 }, (_, i) => ({
          id: i + 1,
          // 0.000001 s apart within a millisecond, four rows sharing one instant exactly.
          at: i < 4 ? '2027-01-01 00:00:00.000500+00' : `2027-01-01 00:00:00.000${String(i).padStart(3, '0')}+00`,
          late: i % 3 === 0 ? `2027-01-02 00:00:0${i % 10}+00` : null,
          grp: i % 4,
        }));
        await trx('spec_keyset_rows').insert(rows);
        await check(trx);
        throw new Error('rollback');
      })
      .catch((err: Error) => {
        if (err.message !== 'rollback') throw err;
      });
  }

  const all = async (batches: AsyncIterable<Array<Record<string, unknown>>>) => {
    const sizes: number[] = [];
    const ids: number[] = [];
    for await (const batch of batches) {
      sizes.push(batch.length);
      ids.push(...batch.map((row) => Number(row.id)));
    }
    return { sizes, ids };
  };

  it('yields every row once, in the order one query would give, for asc, desc, mixed keys and an expression', async () => {
    await withRows(async (trx) => {
      const build = () => trx('spec_keyset_rows as k').select('k.id');
      const orders = [
        [
          { sql: 'k.at', order: 'asc' as const },
          { sql: 'k.id', order: 'asc' as const },
        ],
        [
          { sql: 'k.at', order: 'desc' as const },
          { sql: 'k.id', order: 'asc' as const },
        ],
        [
          { sql: 'k.grp', order: 'asc' as const },
          { sql: 'k.at', order: 'desc' as const },
          { sql: 'k.id', order: 'desc' as const },
        ],
        [
          { sql: 'coalesce(k.late, k.at)', order: 'asc' as const },
          { sql: 'k.id', order: 'asc' as const },
        ],
      ];
      for (const keys of orders) {
        const expected = (await build().orderByRaw(keys.map((key) => `${key.sql} ${key.order}`).join(', '))).map((row: { id: number }) => row.id);
        const { sizes, ids } = await all(keysetBatches(trx, build, keys, 5));
        expect(ids, JSON.stringify(keys)).to.deep.equal(expected);
        expect(new Set(ids).size).to.equal(23);
        expect(sizes).to.deep.equal([5, 5, 5, 5, 3]);
      }
    });
  });

  it('keeps a filter of the query on every batch, and runs no query once the reader stops', async () => {
    await withRows(async (trx) => {
      const build = () => trx('spec_keyset_rows as k').where('k.grp', '<>', 0).select('k.id');
      const keys = [
        { sql: 'k.at', order: 'desc' as const },
        { sql: 'k.id', order: 'asc' as const },
      ];
      const { ids } = await all(keysetBatches(trx, build, keys, 4));
      expect(ids).to.have.length(17);
      expect(ids.every((id) => (id - 1) % 4 !== 0)).to.equal(true);

      let queries = 0;
      const counting = () => {
        queries++;
        return build();
      };
      for await (const batch of keysetBatches(trx, counting, keys, 4)) {
        expect(batch).to.have.length(4);
        break;
      }
      expect(queries).to.equal(1);
      // A batch exactly filling the last page is followed by one empty read, and nothing is yielded for it.
      const sixteen = await all(keysetBatches(trx, () => build().whereNot('k.id', 2), keys, 4));
      expect(sixteen.sizes).to.deep.equal([4, 4, 4, 4]);
    });
  });

  it('primed: the first query runs before anything is read, so its failure is the caller’s to answer', async () => {
    await withRows(async (trx) => {
      const keys = [{ sql: 'k.id', order: 'asc' as const }];
      let queries = 0;
      const batches = await primed(
        keysetBatches(
          trx,
          () => {
            queries++;
            return trx('spec_keyset_rows as k').select('k.id');
          },
          keys,
          10,
        ),
      );
      expect(queries).to.equal(1);
      expect((await all(batches)).ids).to.have.length(23);

      let failure: unknown;
      await trx.transaction(async (savepoint) => {
        failure = await primed(keysetBatches(savepoint, () => savepoint('spec_keyset_rows as k').select('k.no_such_column'), keys)).then(
          () => undefined,
          (err: unknown) => err,
        );
        throw new Error('back to the savepoint');
      }).catch(() => {});
      expect(String(failure)).to.match(/no_such_column/);
    });
  });
});
