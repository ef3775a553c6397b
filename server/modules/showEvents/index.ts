import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';

/** The `showEvents` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'showEvents', handlers } satisfies ModuleRecord;
