import type { ModuleRecord } from '../record.ts';
import { primeCatalog } from './prime.ts';
import { handlers } from './handlers.ts';
import { policy } from './publicPolicy.ts';
import { catalogServices, subscribers } from './services.ts';

/**
 * The `catalog` module's record (server/modules/record.ts): its handlers, policy entries, queues, subscribers and
 * services. Imported by server/modules/index.ts only; what other modules may use is this module's index.ts.
 */
export function record() {
  return { tag: 'catalog', handlers, policy, subscribers, services: catalogServices, prime: primeCatalog } satisfies ModuleRecord;
}
