import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';

/** The `fulfillment` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'fulfillment', handlers } satisfies ModuleRecord;
}

// ---- what other modules use (they import this module through this file only) ----
export { type UpsertOutcome, countOutcomes } from './outcomes.ts';
export { FulfillmentItem, type FulfillmentKind } from './models.ts';
