import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { purchaseConversion } from './meta.ts';
import { policy } from './publicPolicy.ts';
import { analyticsServices } from './throttle.ts';

/**
 * The `analytics` module's record (server/modules/record.ts): its handlers, policy entries, queues, subscribers and
 * services. Imported by server/modules/index.ts only; what other modules may use is this module's index.ts.
 */
export function record() {
  return { tag: 'analytics', handlers, policy, jobs, subscribers: [purchaseConversion], services: analyticsServices } satisfies ModuleRecord;
}
