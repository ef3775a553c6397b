import type { ModuleRecord } from '../record.ts';
import { seatClaim, subscribers } from './claim.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { policy } from './policy.ts';

/** The `waitlist` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'waitlist', handlers, policy, jobs, seatClaims: [seatClaim], subscribers } satisfies ModuleRecord;
