import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { policy } from './policy.ts';

/** The `system` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'system', handlers, policy } satisfies ModuleRecord;
