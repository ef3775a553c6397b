import { isDeepStrictEqual } from 'node:util';
import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict, type FieldError } from '../../../platform/http/problem.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';
import type { UpsertOutcome } from '../../fulfillment/index.ts';
import { localizedErrors } from '../../../domain/localizedInput.ts';
import { Offer } from '../models.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import { Show } from '../../shows/index.ts';
import { resolveItems, withItems, type OfferWithItems } from '../queries.ts';
import { invalidOffer, offerFields, rangeErrors } from '../rules.ts';
import { replaceItems } from './replaceItems.ts';

export type OfferSeed = operations['upsertOffers']['requestBody']['content']['application/json']['offers'][number];

const time = (value: Date | string | null | undefined) => (value ? new Date(value).getTime() : null);

/** What is compared for `unchanged`: every stored field and the items, in forms that compare by value. */
function comparable(offer: Pick<Offer, 'showId' | 'name' | 'description' | 'bookingPath' | 'experienceType' | 'pricePerGuestVnd' | 'minGuests' | 'maxGuests' | 'salesStartsAt' | 'salesEndsAt' | 'status' | 'sortOrder'>, items: ReadonlyArray<{ fulfillmentItemId: string; quantityPerGuest: number }>) {
  return {
    showId: offer.showId,
    name: offer.name,
    description: offer.description,
    bookingPath: offer.bookingPath,
    experienceType: offer.experienceType,
    pricePerGuestVnd: offer.pricePerGuestVnd,
    minGuests: offer.minGuests,
    maxGuests: offer.maxGuests,
    salesStartsAt: time(offer.salesStartsAt),
    salesEndsAt: time(offer.salesEndsAt),
    status: offer.status,
    sortOrder: offer.sortOrder,
    items: Object.fromEntries(items.map((item) => [item.fulfillmentItemId, item.quantityPerGuest])),
  };
}

/**
 * Creates or updates offers by `code` (the seeder's setup) in one transaction, the existing rows locked. Each
 * entry is the offer's whole state (omitted optional fields take their defaults); one whose fields and items
 * all equal the stored offer is left alone (`unchanged`), so a second run of the same list writes nothing.
 * Every entry is checked (codes listed twice, locales, guest range, sales window, show and item codes) before
 * anything is written; any problem refuses the whole list with 422 pointing into `body/offers/<i>`.
 */
export async function upsertOffers(app: AppContext, seeds: OfferSeed[], actor: StaffActor): Promise<Array<{ code: string; outcome: UpsertOutcome; offer: OfferWithItems }>> {
  const errors: FieldError[] = [];
  const firstIndex = new Map<string, number>();
  const fields = seeds.map((seed, index) => {
    const prefix = `body/offers/${index}`;
    if (firstIndex.has(seed.code)) errors.push({ path: `${prefix}/code`, message: `listed twice (also at ${firstIndex.get(seed.code)})`, code: 'duplicate_code' });
    else firstIndex.set(seed.code, index);
    const offer = offerFields(seed);
    errors.push(...localizedErrors({ name: seed.name, description: seed.description }, app.config, prefix), ...rangeErrors(offer, prefix));
    return offer;
  });

  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now, afterCommit }) => {
      await publish({ trx, app, actor, now, afterCommit }, 'catalog.changed', { entity: 'offer' });
      const showCodes = [...new Set(seeds.flatMap((seed) => (seed.showCode ? [seed.showCode] : [])))];
      const showIds = new Map<string, string>(
        showCodes.length ? (await Show.query(trx).whereIn('code', showCodes).select('id', 'code')).map((show) => [show.code, show.id]) : [],
      );
      const resolved = [];
      for (const [index, seed] of seeds.entries()) {
        const prefix = `body/offers/${index}`;
        if (seed.showCode && !showIds.has(seed.showCode)) errors.push({ path: `${prefix}/showCode`, message: 'no show has this code', code: 'unknown_show' });
        const items = await resolveItems(seed.items ?? [], trx, `${prefix}/items`);
        errors.push(...items.errors);
        resolved.push(items.items);
      }
      // Every problem of every entry in one answer, the references' with the rest.
      if (errors.length) throw invalidOffer(errors);

      const existing = new Map((await Offer.query(trx).whereIn('code', [...firstIndex.keys()]).forUpdate()).map((offer) => [offer.code, offer]));
      const stored = new Map((await withItems([...existing.values()], trx)).map((entry) => [entry.offer.code, entry.items]));
      const results: Array<{ code: string; outcome: UpsertOutcome; offer: OfferWithItems }> = [];
      for (const [index, seed] of seeds.entries()) {
        const wanted = { ...fields[index], showId: seed.showCode ? showIds.get(seed.showCode)! : null };
        const items = resolved[index];
        const row = existing.get(seed.code);
        let offer: Offer;
        let outcome: UpsertOutcome;
        if (!row) {
          offer = await Offer.query(trx).insertAndFetch({ code: seed.code, ...wanted });
          await replaceItems(offer.id, items, trx);
          outcome = 'created';
        } else if (isDeepStrictEqual(comparable(row, stored.get(seed.code) ?? []), comparable(wanted, items))) {
          offer = row;
          outcome = 'unchanged';
        } else {
          offer = await row.$query(trx).patchAndFetch(wanted);
          await replaceItems(offer.id, items, trx);
          outcome = 'updated';
        }
        results.push({ code: seed.code, outcome, offer: (await withItems([offer], trx))[0] });
      }
      return results;
    });
  } catch (err) {
    // Two runs creating the same new code at once: the unique index refuses the later one.
    if (isUniqueViolation(err)) throw Conflict('code_taken', 'Another request created one of these codes at the same time; run it again.');
    throw err;
  }
}
