import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { subscribers } from './service.ts';

/** The `referralCommissions` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'referralCommissions', handlers, subscribers } satisfies ModuleRecord;
