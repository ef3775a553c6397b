import type { ModuleRecord } from '../record.ts';
import { cancellationRefunds } from './effects.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { policy } from './policy.ts';

/** The `payments` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'payments', handlers, policy, jobs, subscribers: [cancellationRefunds] } satisfies ModuleRecord;
