import { iso } from '../presenting.ts';
import { staffText, untranslated, type LocaleConfig } from '../../domain/localizedInput.ts';
import type { Schema } from '../../platform/http/handler.ts';
import type { FulfillmentItem } from './models.ts';

/** A fulfillment item for staff (allow-list), every site locale of its name filled. */
export function presentFulfillmentItem(item: FulfillmentItem, config: LocaleConfig): Schema<'FulfillmentItem'> {
  return {
    id: item.id,
    code: item.code,
    name: staffText(item.name, config),
    untranslated: untranslated({ name: item.name }, config),
    kind: item.kind,
    dietaryTags: [...(item.dietaryTags ?? [])],
    createdAt: iso(item.createdAt)!,
    updatedAt: iso(item.updatedAt)!,
  };
}
