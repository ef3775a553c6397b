import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';

/**
 * The `exports` module's record (server/modules/record.ts): the list exports and the night's lists (issue 36 §2).
 * It reads the tables of the modules before it (through their doors' filters, and in SQL) and writes none.
 * Imported by server/modules/index.ts only; nothing else uses this module, so it has no index.ts.
 */
export function record() {
  return { tag: 'exports', handlers } satisfies ModuleRecord;
}
