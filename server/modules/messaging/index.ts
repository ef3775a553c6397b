import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { policy } from './policy.ts';

/** The `messaging` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'messaging', handlers, policy, jobs } satisfies ModuleRecord;
