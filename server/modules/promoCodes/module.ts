import type { ModuleRecord } from '../record.ts';
import { priceAdjustment, subscribers } from './adjustment.ts';
import { handlers } from './handlers.ts';

/**
 * The `promoCodes` module's record (server/modules/record.ts): its handlers, policy entries, queues, subscribers and
 * services. Imported by server/modules/index.ts only; what other modules may use is this module's index.ts.
 */
export function record() {
  return { tag: 'promoCodes', handlers, priceAdjustments: [priceAdjustment], subscribers } satisfies ModuleRecord;
}
