import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { policy } from './publicPolicy.ts';

/**
 * The `referralPartners` module's record (server/modules/record.ts): its handlers, policy entries, queues, subscribers and
 * services. Imported by server/modules/index.ts only; what other modules may use is this module's index.ts.
 */
export function record() {
  return { tag: 'referralPartners', handlers, policy } satisfies ModuleRecord;
}
