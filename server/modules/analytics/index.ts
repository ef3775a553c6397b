import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { purchaseConversion } from './meta.ts';
import { policy } from './publicPolicy.ts';
import { analyticsServices } from './throttle.ts';

/** The `analytics` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'analytics', handlers, policy, jobs, subscribers: [purchaseConversion], services: analyticsServices } satisfies ModuleRecord;
}

// ---- what other modules use (they import this module through this file only) ----
export { queueLeadConversion } from './meta.ts';
export { MetaCapiEvent } from './models.ts';
