import type { ModuleRecord } from '../record.ts';
import { priceAdjustment } from './attribution.ts';
import { handlers } from './handlers.ts';
import { referralLinksServices } from './limits.ts';
import { policy } from './publicPolicy.ts';

/** The `referralLinks` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'referralLinks', handlers, policy, priceAdjustments: [priceAdjustment], services: referralLinksServices } satisfies ModuleRecord;
}

// ---- what other modules use (they import this module through this file only) ----
export { ReferralLink } from './models.ts';
