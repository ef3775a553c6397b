import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';

/**
 * The `maintenance` module's record (server/modules/record.ts): its handlers, policy entries, queues, subscribers and
 * services. Imported by server/modules/index.ts only; what other modules may use is this module's index.ts.
 */
export function record() {
  return { tag: 'maintenance', handlers } satisfies ModuleRecord;
}
