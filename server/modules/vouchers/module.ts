import type { ModuleRecord } from '../record.ts';
import { priceAdjustment, subscribers } from './adjustment.ts';
import { handlers } from './handlers.ts';
import { vouchersServices } from './limits.ts';
import { policy } from './publicPolicy.ts';

/**
 * The `vouchers` module's record (server/modules/record.ts): its handlers, policy entries, queues, subscribers and
 * services. Imported by server/modules/index.ts only; what other modules may use is this module's index.ts.
 */
export function record() {
  return { tag: 'vouchers', handlers, policy, priceAdjustments: [priceAdjustment], subscribers, services: vouchersServices } satisfies ModuleRecord;
}
