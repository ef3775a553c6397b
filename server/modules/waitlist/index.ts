import type { ModuleRecord } from '../record.ts';
import { seatClaim, subscribers } from './claim.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { policy } from './policy.ts';

/** The `waitlist` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'waitlist', handlers, policy, jobs, seatClaims: [seatClaim], subscribers } satisfies ModuleRecord;
}
