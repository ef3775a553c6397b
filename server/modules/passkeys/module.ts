import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { passkeysServices } from './limits.ts';
import { policy } from './policy.ts';
import { subscribers } from './subscribers.ts';

/**
 * The `passkeys` module's record (server/modules/record.ts): its handlers, policy entries, queues, subscribers and
 * services. Imported by server/modules/index.ts only; what other modules may use is this module's index.ts.
 */
export function record() {
  return { tag: 'passkeys', handlers, policy, subscribers, services: passkeysServices } satisfies ModuleRecord;
}
