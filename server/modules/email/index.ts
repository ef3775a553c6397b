import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { holdExpiredMessages } from './holdExpiry.ts';
import { jobs } from './jobs.ts';

/** The `email` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'email', handlers, jobs, subscribers: [holdExpiredMessages] } satisfies ModuleRecord;
