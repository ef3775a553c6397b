import type { ModuleRecord } from '../record.ts';
import { priceAdjustment } from './attribution.ts';
import { handlers } from './handlers.ts';
import { referralLinksServices } from './limits.ts';
import { policy } from './publicPolicy.ts';

/**
 * The `referralLinks` module's record (server/modules/record.ts): its handlers, policy entries, queues, subscribers and
 * services. Imported by server/modules/index.ts only; what other modules may use is this module's index.ts.
 */
export function record() {
  return { tag: 'referralLinks', handlers, policy, priceAdjustments: [priceAdjustment], services: referralLinksServices } satisfies ModuleRecord;
}
