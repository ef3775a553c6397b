import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { passkeysServices } from './limits.ts';
import { policy } from './policy.ts';
import { subscribers } from './subscribers.ts';

/** The `passkeys` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'passkeys', handlers, policy, subscribers, services: passkeysServices } satisfies ModuleRecord;
}
