import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';

/** The `knowledge` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'knowledge', handlers } satisfies ModuleRecord;
