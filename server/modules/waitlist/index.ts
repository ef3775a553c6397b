import type { ModuleRecord } from '../record.ts';
import { claimWaitlistOffer } from './commands/claimOffer.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { policy } from './publicPolicy.ts';
import { waitlistServices } from './services.ts';
import { subscribers } from './subscribers.ts';

/** The `waitlist` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'waitlist', handlers, policy, jobs, seatClaims: [claimWaitlistOffer], subscribers, services: waitlistServices } satisfies ModuleRecord;
}
