import { randomUUID } from 'node:crypto';
import { FulfillmentItem } from '../../../server/modules/fulfillment/models.ts';

/** The fulfillment module's rows. */

const suffix = () => randomUUID().replace(/-/g, '').slice(0, 6).toUpperCase();

/** A fulfillment item: a MEAL named after its code, no dietary tags. */
export async function buildFulfillmentItem(overrides: Partial<Pick<FulfillmentItem, 'code' | 'name' | 'kind' | 'dietaryTags'>> = {}) {
  const code = overrides.code ?? `ITEM-${suffix()}`;
  return FulfillmentItem.query().insertAndFetch({
    code,
    name: overrides.name ?? { en: `Item ${code}` },
    kind: overrides.kind ?? 'MEAL',
    dietaryTags: overrides.dietaryTags ?? [],
  });
}
