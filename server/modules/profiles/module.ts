import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { profilesServices } from './limits.ts';
import { policy } from './publicPolicy.ts';

/**
 * The `profiles` module's record (server/modules/record.ts): its handlers, policy entries, queues, subscribers and
 * services. Imported by server/modules/index.ts only; what other modules may use is this module's index.ts.
 */
export function record() {
  return { tag: 'profiles', handlers, policy, services: profilesServices } satisfies ModuleRecord;
}
