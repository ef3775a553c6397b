import { expect } from 'chai';
import { Model } from 'objection';
import { isUniqueViolation } from '../../server/platform/db/uniqueViolation.ts';
import { testDatabase } from '../helpers/database.ts';

class SpecRow extends Model {
  static override tableName = 'spec_unique_rows';
  code!: string | null;
}

describe('isUniqueViolation (server/platform/db/uniqueViolation.ts) @db', function () {
  this.timeout(120_000);

  it("recognizes the driver's unique violation, raw from knex and wrapped by objection, by constraint when asked", async () => {
    const db = await testDatabase();
    await db.knex.transaction(async (trx) => {
      await trx.raw('create temporary table spec_unique_rows (id serial primary key, code text constraint spec_unique_rows_code_key unique, note text not null default \'\') on commit drop');
      await trx('spec_unique_rows').insert({ code: 'a' });
      // Each attempt in a savepoint, so the transaction goes on after it fails.
      const failure = (run: (sp: typeof trx) => PromiseLike<unknown>) =>
        trx.transaction(async (sp) => run(sp)).then(() => undefined, (err: unknown) => err);

      const raw = await failure((sp) => sp('spec_unique_rows').insert({ code: 'a' }));
      const wrapped = await failure((sp) => SpecRow.query(sp).insert({ code: 'a' }));
      const notNull = await failure((sp) => sp('spec_unique_rows').insert({ code: 'b', note: null }));

      for (const err of [raw, wrapped]) {
        expect(err).to.be.an('error');
        expect(isUniqueViolation(err)).to.equal(true);
        expect(isUniqueViolation(err, 'spec_unique_rows_code_key')).to.equal(true);
        expect(isUniqueViolation(err, 'another_index')).to.equal(false);
      }
      expect(notNull).to.be.an('error');
      expect(isUniqueViolation(notNull)).to.equal(false);
      expect(isUniqueViolation(new Error('duplicate'))).to.equal(false);
      expect(isUniqueViolation(undefined)).to.equal(false);
    });
  });
});
