import { FulfillmentItem, type FulfillmentKind } from './models.ts';

/** Fulfillment items by code (then id), with the total for paging. */
export async function listFulfillmentItems(filters: { kind?: FulfillmentKind; limit: number; offset: number }): Promise<{ items: FulfillmentItem[]; total: number }> {
  const base = FulfillmentItem.query();
  if (filters.kind) base.where('kind', filters.kind);
  const [items, total] = await Promise.all([
    base.clone().orderBy([{ column: 'code' }, { column: 'id' }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize(),
  ]);
  return { items, total };
}
