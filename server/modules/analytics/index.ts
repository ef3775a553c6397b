import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { purchaseConversion } from './meta.ts';
import { policy } from './policy.ts';

/** The `analytics` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'analytics', handlers, policy, jobs, subscribers: [purchaseConversion] } satisfies ModuleRecord;
