import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { policy } from './policy.ts';

/** The `storage` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'storage', handlers, policy } satisfies ModuleRecord;
