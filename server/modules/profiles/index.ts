import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { profilesServices } from './limits.ts';
import { policy } from './publicPolicy.ts';

/** The `profiles` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'profiles', handlers, policy, services: profilesServices } satisfies ModuleRecord;
}
