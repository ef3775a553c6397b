import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import { assertLocalized } from '../../../domain/localizedInput.ts';
import type { Offer } from '../models.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import { findOfferOrFail, resolveItems, withItems, type OfferWithItems } from '../queries.ts';
import { invalidOffer, rangeErrors } from '../rules.ts';
import { replaceItems } from './replaceItems.ts';
import { CodeTaken, showErrors } from './createOffer.ts';

export type UpdateOfferInput = operations['updateOffer']['requestBody']['content']['application/json'];

/**
 * Changes an offer with its row locked; the guest range and sales window are checked on the offer as it would
 * be afterwards (so a lone `minGuests` above the stored maximum is a 422, not the CHECK's 500). `items`
 * replaces the whole list.
 */
export async function updateOffer(app: AppContext, id: string, input: UpdateOfferInput, actor: StaffActor): Promise<OfferWithItems> {
  assertLocalized({ name: input.name, description: input.description }, app.config);
  const { items, salesStartsAt, salesEndsAt, ...rest } = input;
  const patch: Partial<Offer> = { ...rest };
  if (salesStartsAt !== undefined) patch.salesStartsAt = salesStartsAt ? new Date(salesStartsAt) : null;
  if (salesEndsAt !== undefined) patch.salesEndsAt = salesEndsAt ? new Date(salesEndsAt) : null;
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now, afterCommit }) => {
      await publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'offer' });
      const offer = await findOfferOrFail(id, trx, { forUpdate: true });
      const after = { ...offer, ...patch } as Offer;
      const resolved = items ? await resolveItems(items, trx, 'body/items') : undefined;
      const errors = [
        ...rangeErrors(after, 'body', (field) => field in input),
        ...(input.showId !== undefined ? await showErrors(input.showId, trx, 'body/showId') : []),
        ...(resolved?.errors ?? []),
      ];
      if (errors.length) throw invalidOffer(errors);
      // Always written, so updatedAt moves for a change to the items alone too (they are part of the offer).
      const updated = await offer.$query(trx).patchAndFetch(patch);
      if (resolved) await replaceItems(offer.id, resolved.items, trx);
      return (await withItems([updated], trx))[0];
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw CodeTaken();
    throw err;
  }
}
