import type { ModuleRecord } from '../record.ts';
import { priceAdjustment, subscribers } from './adjustment.ts';
import { handlers } from './handlers.ts';
import { vouchersServices } from './limits.ts';
import { policy } from './publicPolicy.ts';

/** The `vouchers` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'vouchers', handlers, policy, priceAdjustments: [priceAdjustment], subscribers, services: vouchersServices } satisfies ModuleRecord;
}
