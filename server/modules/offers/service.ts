import type { Knex } from 'knex';
import type { LocalizedText } from '../../domain/localized.ts';
import { NotFound, UnprocessableFields, type FieldError } from '../../platform/http/problem.ts';
import type { FulfillmentKind } from '../fulfillment/index.ts';
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

/** What a create or a seed entry sends, before its defaults (the contract's). */
export interface OfferInput {
  name: LocalizedText;
  description?: LocalizedText;
  bookingPath: BookingPath;
  experienceType: string;
  pricePerGuestVnd: number;
  minGuests?: number;
  maxGuests?: number;
  salesStartsAt?: string | null;
  salesEndsAt?: string | null;
  status?: OfferStatus;
  sortOrder?: number;
}

/** An offer's stored fields (all but code and show) from a create or seed entry, every omitted one its default. */
export function offerFields(input: OfferInput) {
  return {
    name: input.name,
    description: input.description ?? {},
    bookingPath: input.bookingPath,
    experienceType: input.experienceType,
    pricePerGuestVnd: input.pricePerGuestVnd,
    minGuests: input.minGuests ?? 1,
    maxGuests: input.maxGuests ?? 10,
    salesStartsAt: input.salesStartsAt ? new Date(input.salesStartsAt) : null,
    salesEndsAt: input.salesEndsAt ? new Date(input.salesEndsAt) : null,
    status: input.status ?? 'ACTIVE',
    sortOrder: input.sortOrder ?? 0,
  };
}

/** The fields the database's CHECKs relate to each other, as the offer would be after the write. */
export interface OfferRanges {
  minGuests: number;
  maxGuests: number;
  salesStartsAt: Date | string | null | undefined;
  salesEndsAt: Date | string | null | undefined;
}

/**
 * `minGuests` ≤ `maxGuests` (422 `guest_range`) and `salesStartsAt` < `salesEndsAt` (422 `sales_window`),
 * checked here so the CHECK constraints never turn a bad request into a 500. `sent` names the fields the caller
 * sent: the error points at the one they can change.
 */
export function rangeErrors(ranges: OfferRanges, prefix: string, sent: (field: string) => boolean = () => true): FieldError[] {
  const errors: FieldError[] = [];
  if (ranges.minGuests > ranges.maxGuests) {
    const field = sent('maxGuests') ? 'maxGuests' : 'minGuests';
    errors.push({ path: `${prefix}/${field}`, message: `minGuests (${ranges.minGuests}) must not exceed maxGuests (${ranges.maxGuests})`, code: 'guest_range' });
  }
  if (ranges.salesStartsAt && ranges.salesEndsAt && new Date(ranges.salesStartsAt) >= new Date(ranges.salesEndsAt)) {
    const field = sent('salesEndsAt') ? 'salesEndsAt' : 'salesStartsAt';
    errors.push({ path: `${prefix}/${field}`, message: 'salesStartsAt must be before salesEndsAt', code: 'sales_window' });
  }
  return errors;
}

export const invalidOffer = (errors: FieldError[]) => UnprocessableFields('The offer is not acceptable as sent.', errors);

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
    ? await trx('fulfillment_items').where((q) => q.whereIn('code', codes).orWhereIn('id', ids)).select('id', 'code')
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

/** Replaces an offer's items. */
export async function replaceItems(offerId: string, items: ReadonlyArray<{ fulfillmentItemId: string; quantityPerGuest: number }>, trx: Knex.Transaction): Promise<void> {
  await trx('offer_items').where('offer_id', offerId).delete();
  if (items.length) {
    await trx('offer_items').insert(items.map((item) => ({ offer_id: offerId, fulfillment_item_id: item.fulfillmentItemId, quantity_per_guest: item.quantityPerGuest })));
  }
}
