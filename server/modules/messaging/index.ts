import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { policy } from './publicPolicy.ts';
import { messagingServices } from './service.ts';

/** The `messaging` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'messaging', handlers, policy, jobs, services: messagingServices } satisfies ModuleRecord;
}
