import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { policy } from './publicPolicy.ts';
import { inquiriesServices } from './services.ts';
import { subscribers } from './subscribers.ts';

/**
 * The `inquiries` module's record (server/modules/record.ts): its handlers, policy entries, queues, subscribers and
 * services. Imported by server/modules/index.ts only; what other modules may use is this module's index.ts.
 */
export function record() {
  return { tag: 'inquiries', handlers, policy, subscribers, services: inquiriesServices } satisfies ModuleRecord;
}
