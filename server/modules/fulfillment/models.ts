import { BaseModel } from '../../platform/db/model.ts';
import type { LocalizedText } from '../../domain/localized.ts';

export const FULFILLMENT_KINDS = ['MEAL', 'DRINK', 'MERCH', 'SERVICE'] as const;
export type FulfillmentKind = (typeof FULFILLMENT_KINDS)[number];

/** What the kitchen and floor prepare per guest (DOMAIN.md "Catalog"); upserted by `code`. */
export class FulfillmentItem extends BaseModel {
  static override tableName = 'fulfillment_items';
  static override jsonAttributes = ['name', 'dietaryTags'];
  code!: string;
  name!: LocalizedText;
  kind!: FulfillmentKind;
  dietaryTags!: string[];
}
