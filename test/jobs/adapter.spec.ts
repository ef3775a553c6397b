import { expect } from 'chai';
import { knexAdapter } from '../../server/platform/jobs/index.ts';
import { testDatabase } from '../helpers/database.ts';

/** pg-boss's `db` option over knex: what the engine relies on, on PGlite and on PostgreSQL alike. */
describe('jobs: the knex adapter @db', () => {
  it('runs parameterized statements and parameterless scripts, answering the rows', async () => {
    const { knex } = await testDatabase();
    const db = knexAdapter(knex);
    expect((await db.executeSql('select $1::int + 1 as n, $2::jsonb as j', [41, JSON.stringify({ a: [1] })])).rows).to.deep.equal([{ n: 42, j: { a: [1] } }]);
    // Several statements, no parameters: the answer is the last result that has rows.
    const script = await db.executeSql('create temporary table adapter_probe (n int); insert into adapter_probe values (7); select n from adapter_probe; drop table adapter_probe', []);
    expect(script.rows).to.deep.equal([{ n: 7 }]);
  });

  it('rolls back a script that failed inside its transaction, so the connection goes back to knex usable', async () => {
    const { knex } = await testDatabase();
    const db = knexAdapter(knex);
    const error = await db.executeSql('BEGIN; select 1; select 1 / 0; COMMIT;', []).catch((err: Error) => err);
    expect(String(error)).to.match(/division by zero/);
    expect((await knex.raw('select 1 as one')).rows).to.deep.equal([{ one: 1 }]);
  });

  it('over a transaction, runs on its connection: what it writes rolls back with it, and its errors are left to knex', async () => {
    const { knex } = await testDatabase();
    await knex.raw('create table if not exists adapter_trx_probe (n int)');
    try {
      await knex
        .transaction(async (trx) => {
          await knexAdapter(trx).executeSql('insert into adapter_trx_probe values ($1)', [1]);
          expect(Number((await trx('adapter_trx_probe').count<{ count: string }[]>('* as count'))[0].count)).to.equal(1);
          throw new Error('abort');
        })
        .catch(() => undefined);
      expect(Number((await knex('adapter_trx_probe').count<{ count: string }[]>('* as count'))[0].count)).to.equal(0);
      await knex.transaction(async (trx) => {
        await knexAdapter(trx).executeSql('insert into adapter_trx_probe values ($1)', [2]);
      });
      expect((await knex('adapter_trx_probe').select('n')).map((r) => r.n)).to.deep.equal([2]);
    } finally {
      await knex.raw('drop table adapter_trx_probe');
    }
  });
});
