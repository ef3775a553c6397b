import type { Knex } from 'knex';
import { OfferItem } from '../models.ts';

/** Replaces an offer's items. */
export async function replaceItems(offerId: string, items: ReadonlyArray<{ fulfillmentItemId: string; quantityPerGuest: number }>, trx: Knex.Transaction): Promise<void> {
  await OfferItem.query(trx).where('offer_id', offerId).delete();
  if (items.length) {
    await OfferItem.query(trx).insert(items.map((item) => ({ offerId, fulfillmentItemId: item.fulfillmentItemId, quantityPerGuest: item.quantityPerGuest })));
  }
}
