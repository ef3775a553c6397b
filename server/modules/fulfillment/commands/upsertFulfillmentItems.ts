import { isDeepStrictEqual } from 'node:util';
import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict, Unprocessable, type FieldError } from '../../../platform/http/problem.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import { localizedErrors, localizedProblem } from '../../../domain/localizedInput.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import { FulfillmentItem } from '../models.ts';
import type { UpsertOutcome } from '../outcomes.ts';

export type FulfillmentItemSeed = operations['upsertFulfillmentItems']['requestBody']['content']['application/json']['items'][number];

/** The stored form of a seed entry: tags sorted (their order carries no meaning), so equal lists compare equal. */
const fieldsOf = (seed: FulfillmentItemSeed) => ({ name: seed.name, kind: seed.kind, dietaryTags: [...new Set(seed.dietaryTags ?? [])].sort() });

/**
 * Creates or updates fulfillment items by `code` (the seeder's setup), all in one transaction with the existing
 * rows locked. An entry whose fields all equal the stored row is left alone (`unchanged`), so a second run of the
 * same list writes nothing. Any invalid entry refuses the whole list (422) before anything is written.
 */
export async function upsertFulfillmentItems(app: AppContext, seeds: FulfillmentItemSeed[], actor: StaffActor) {
  const errors: FieldError[] = [];
  const firstIndex = new Map<string, number>();
  seeds.forEach((seed, index) => {
    if (firstIndex.has(seed.code)) errors.push({ path: `body/items/${index}/code`, message: `listed twice (also at ${firstIndex.get(seed.code)})`, code: 'duplicate_code' });
    else firstIndex.set(seed.code, index);
  });
  if (errors.length) throw Unprocessable('duplicate_code', 'A code appears twice in the list.', errors);
  const localeErrors = seeds.flatMap((seed, index) => localizedErrors({ name: seed.name }, app.config, `body/items/${index}`));
  if (localeErrors.length) throw localizedProblem(localeErrors);

  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now, afterCommit }) => {
      await publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'fulfillmentItem' });
      const existing = new Map(
        (await FulfillmentItem.query(trx).whereIn('code', [...firstIndex.keys()]).forUpdate()).map((item) => [item.code, item]),
      );
      const results: Array<{ code: string; outcome: UpsertOutcome; item: FulfillmentItem }> = [];
      for (const seed of seeds) {
        const fields = fieldsOf(seed);
        const row = existing.get(seed.code);
        if (!row) {
          results.push({ code: seed.code, outcome: 'created', item: await FulfillmentItem.query(trx).insertAndFetch({ code: seed.code, ...fields }) });
        } else if (isDeepStrictEqual({ name: row.name, kind: row.kind, dietaryTags: row.dietaryTags }, fields)) {
          results.push({ code: seed.code, outcome: 'unchanged', item: row });
        } else {
          results.push({ code: seed.code, outcome: 'updated', item: await row.$query(trx).patchAndFetch(fields) });
        }
      }
      return results;
    });
  } catch (err) {
    // Two runs creating the same new code at once: the unique index refuses the later one.
    if (isUniqueViolation(err)) throw Conflict('code_taken', 'Another request created one of these codes at the same time; run it again.');
    throw err;
  }
}
