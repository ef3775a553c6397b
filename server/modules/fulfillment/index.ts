import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';

/** The `fulfillment` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'fulfillment', handlers } satisfies ModuleRecord;
