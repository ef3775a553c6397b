import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';

/** The `customers` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'customers', handlers } satisfies ModuleRecord;
