import type { Knex } from 'knex';
import type { LocalizedText } from '../../domain/localized.ts';
import { NotFound, type FieldError } from '../../platform/http/problem.ts';
import { FulfillmentItem, type FulfillmentKind } from '../fulfillment/index.ts';
import { Offer, type BookingPath, type OfferStatus } from './models.ts';

/** One item of an offer as presented: the fulfillment item's code, name and kind with the quantity per guest. */
export interface OfferItemView {
  fulfillmentItemId: string;
  code: string;
  name: LocalizedText;
  kind: FulfillmentKind;
  quantityPerGuest: number;
}

export interface OfferWithItems {
  offer: Offer;
  items: OfferItemView[];
}

export interface OfferFilters {
  showId?: string;
  status?: OfferStatus;
  bookingPath?: BookingPath;
  limit: number;
  offset: number;
}

/** Offers by sort order, then code, then id, each with its items. */
export async function listOffers(filters: OfferFilters): Promise<{ items: OfferWithItems[]; total: number }> {
  const base = Offer.query();
  if (filters.showId) base.where('show_id', filters.showId);
  if (filters.status) base.where('status', filters.status);
  if (filters.bookingPath) base.where('booking_path', filters.bookingPath);
  const [offers, total] = await Promise.all([
    base.clone().orderBy([{ column: 'sort_order' }, { column: 'code' }, { column: 'id' }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize(),
  ]);
  return { items: await withItems(offers), total };
}

export async function findOfferOrFail(id: string, trx?: Knex.Transaction, options: { forUpdate?: boolean } = {}): Promise<Offer> {
  const query = Offer.query(trx).findById(id);
  if (options.forUpdate) query.forUpdate();
  const offer = await query;
  if (!offer) throw NotFound('No such offer.');
  return offer;
}

/** The offers with their items (one query for all of them), items by code. */
export async function withItems(offers: Offer[], trx?: Knex.Transaction): Promise<OfferWithItems[]> {
  if (!offers.length) return [];
  const knex = trx ?? Offer.knex();
  const rows: Array<{ offer_id: string; fulfillment_item_id: string; code: string; name: LocalizedText; kind: FulfillmentKind; quantity_per_guest: number }> = await knex('offer_items')
    .join('fulfillment_items', 'fulfillment_items.id', 'offer_items.fulfillment_item_id')
    .whereIn('offer_items.offer_id', offers.map((offer) => offer.id))
    .orderBy([{ column: 'fulfillment_items.code' }])
    .select('offer_items.offer_id', 'offer_items.fulfillment_item_id', 'fulfillment_items.code', 'fulfillment_items.name', 'fulfillment_items.kind', 'offer_items.quantity_per_guest');
  const byOffer = new Map<string, OfferItemView[]>();
  for (const row of rows) {
    const list = byOffer.get(row.offer_id) ?? [];
    list.push({ fulfillmentItemId: row.fulfillment_item_id, code: row.code, name: row.name, kind: row.kind, quantityPerGuest: row.quantity_per_guest });
    byOffer.set(row.offer_id, list);
  }
  return offers.map((offer) => ({ offer, items: byOffer.get(offer.id) ?? [] }));
}

export async function findOfferWithItems(id: string, trx?: Knex.Transaction): Promise<OfferWithItems> {
  const [found] = await withItems([await findOfferOrFail(id, trx)], trx);
  return found;
}

export interface ItemInput {
  code?: string;
  fulfillmentItemId?: string;
  quantityPerGuest: number;
}

/**
 * Resolves item inputs (by code or id) to fulfillment item ids: an unknown one is 422
 * `unknown_fulfillment_item`, one listed twice (by either name) 422 `duplicate_item`, each pointing at
 * `<prefix>/<index>`.
 */
export async function resolveItems(inputs: readonly ItemInput[], trx: Knex.Transaction, prefix: string): Promise<{ items: Array<{ fulfillmentItemId: string; quantityPerGuest: number }>; errors: FieldError[] }> {
  const codes = inputs.flatMap((input) => (input.code ? [input.code] : []));
  const ids = inputs.flatMap((input) => (input.fulfillmentItemId ? [input.fulfillmentItemId] : []));
  const rows: Array<{ id: string; code: string }> = codes.length || ids.length
    ? await FulfillmentItem.query(trx).where((q) => q.whereIn('code', codes).orWhereIn('id', ids)).select('id', 'code')
    : [];
  const byCode = new Map(rows.map((row) => [row.code, row.id]));
  const known = new Set(rows.map((row) => row.id));
  const errors: FieldError[] = [];
  const items: Array<{ fulfillmentItemId: string; quantityPerGuest: number }> = [];
  const seen = new Set<string>();
  inputs.forEach((input, index) => {
    const id = input.code ? byCode.get(input.code) : known.has(input.fulfillmentItemId!) ? input.fulfillmentItemId : undefined;
    const field = input.code ? 'code' : 'fulfillmentItemId';
    if (!id) {
      errors.push({ path: `${prefix}/${index}/${field}`, message: 'no such fulfillment item', code: 'unknown_fulfillment_item' });
    } else if (seen.has(id)) {
      errors.push({ path: `${prefix}/${index}/${field}`, message: 'the item is listed twice', code: 'duplicate_item' });
    } else {
      seen.add(id);
      items.push({ fulfillmentItemId: id, quantityPerGuest: input.quantityPerGuest });
    }
  });
  return { items, errors };
}

