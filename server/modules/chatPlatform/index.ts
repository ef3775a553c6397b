import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { policy } from './publicPolicy.ts';
import { chatPlatformServices } from './service.ts';

/** The `chatPlatform` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'chatPlatform', handlers, policy, jobs, services: chatPlatformServices } satisfies ModuleRecord;
}

// ---- what other modules use (they import this module through this file only) ----
export { type TurnChannel } from './turns.ts';
export { insertTurn } from './queries.ts';
export { runTurn } from './commands/runTurn.ts';
