import { jobs as analyticsJobs } from '../modules/analytics/jobs.ts';
import { jobs as bookingJobs } from '../modules/booking/jobs.ts';
import { jobs as emailJobs } from '../modules/email/jobs.ts';
import { jobs as paymentJobs } from '../modules/payments/jobs.ts';
import { jobs as waitlistJobs } from '../modules/waitlist/jobs.ts';
import { jobs as chatPlatformJobs } from '../modules/chatPlatform/jobs.ts';
import { jobs as messagingJobs } from '../modules/messaging/jobs.ts';
import type { QueueDefinition } from './types.ts';

/**
 * Every module's queues. A module with background work exports them from `server/modules/<area>/jobs.ts`:
 *
 *   export const jobs: QueueDefinition[] = [{ name: 'email.send', handler: deliver, retryLimit: 5, … }];
 *
 * and is added here: `import { jobs as emailJobs } from '../modules/email/jobs.ts'` then `emailJobs` in the list.
 * The engine registers these queues at start and refuses to enqueue on any other.
 */
const MODULE_JOBS: ReadonlyArray<readonly QueueDefinition[]> = [emailJobs, bookingJobs, paymentJobs, waitlistJobs, analyticsJobs, chatPlatformJobs, messagingJobs];

/** The modules' lists as one, refusing a queue name used twice. */
export function collectQueues(lists: ReadonlyArray<readonly QueueDefinition[]>): QueueDefinition[] {
  const seen = new Set<string>();
  const all: QueueDefinition[] = [];
  for (const list of lists) {
    for (const queue of list) {
      if (seen.has(queue.name)) throw new Error(`Job queue "${queue.name}" is declared by two modules`);
      seen.add(queue.name);
      all.push(queue);
    }
  }
  return all;
}

export const QUEUES: readonly QueueDefinition[] = collectQueues(MODULE_JOBS);
