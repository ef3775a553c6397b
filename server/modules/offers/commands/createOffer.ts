import type { operations } from '../../../../sdk/schema.d.ts';
import type { Knex } from 'knex';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict, type FieldError } from '../../../platform/http/problem.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import { assertLocalized } from '../../../domain/localizedInput.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import { Show } from '../../shows/index.ts';
import { Offer } from '../models.ts';
import { resolveItems, withItems, type OfferWithItems } from '../queries.ts';
import { invalidOffer, offerFields, rangeErrors } from '../rules.ts';
import { replaceItems } from './replaceItems.ts';

export type CreateOfferInput = operations['createOffer']['requestBody']['content']['application/json'];

export const CodeTaken = () => Conflict('code_taken', 'Another offer has this code.');

/** 422 `unknown_show` unless the show exists (null: every show). */
export async function showErrors(showId: string | null | undefined, trx: Knex.Transaction, path: string): Promise<FieldError[]> {
  if (!showId) return [];
  const show = await Show.query(trx).findById(showId).select('id');
  return show ? [] : [{ path, message: 'no such show', code: 'unknown_show' }];
}

/** Creates an offer and its items in one transaction; the code's uniqueness is the unique index's (409 `code_taken`). */
export async function createOffer(app: AppContext, input: CreateOfferInput, actor: StaffActor): Promise<OfferWithItems> {
  assertLocalized({ name: input.name, description: input.description }, app.config);
  const fields = { code: input.code, showId: input.showId ?? null, ...offerFields(input) };
  const ranges = rangeErrors(fields, 'body');
  if (ranges.length) throw invalidOffer(ranges);
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now, afterCommit }) => {
      await publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'offer' });
      const resolved = await resolveItems(input.items ?? [], trx, 'body/items');
      const errors = [...(await showErrors(fields.showId, trx, 'body/showId')), ...resolved.errors];
      if (errors.length) throw invalidOffer(errors);
      const offer = await Offer.query(trx).insertAndFetch(fields);
      await replaceItems(offer.id, resolved.items, trx);
      return (await withItems([offer], trx))[0];
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw CodeTaken();
    throw err;
  }
}
