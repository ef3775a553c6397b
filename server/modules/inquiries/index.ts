import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { policy } from './policy.ts';

/** The `inquiries` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'inquiries', handlers, policy } satisfies ModuleRecord;
