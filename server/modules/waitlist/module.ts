import type { ModuleRecord } from '../record.ts';
import { claimWaitlistOffer } from './commands/claimOffer.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { policy } from './publicPolicy.ts';
import { waitlistServices } from './services.ts';
import { subscribers } from './subscribers.ts';

/**
 * The `waitlist` module's record (server/modules/record.ts): its handlers, policy entries, queues, subscribers and
 * services. Imported by server/modules/index.ts only; what other modules may use is this module's index.ts.
 */
export function record() {
  return { tag: 'waitlist', handlers, policy, jobs, seatClaims: [claimWaitlistOffer], subscribers, services: waitlistServices } satisfies ModuleRecord;
}
