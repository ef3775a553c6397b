import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { policy } from './publicPolicy.ts';
import { subscribers } from './subscribers.ts';

/** The `auth` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'auth', handlers, policy, subscribers } satisfies ModuleRecord;
}

// ---- what other modules use (they import this module through this file only) ----
export { RECENT_SIGN_IN_SECONDS, requireRecentSignIn } from './sessions.ts';
export { startSession } from './startSession.ts';
