import type { QueueDefinition } from '../../platform/jobs/types.ts';
import { expireHolds } from './commands/expireHolds.ts';

/** Marks expired holds EXPIRED (bookkeeping: availability already ignores a hold past its expiry by time). */
export const EXPIRE_HOLDS_QUEUE = 'booking.expire-holds';

/**
 * Every hold schedules this job at its own expiry (enqueued in the hold's transaction, `startAfter` =
 * `holdExpiresAt`, so it exists only if the hold does). A run sweeps every HELD reservation past its expiry, not
 * only its own, so a run missed or late is caught up by the next; running twice changes nothing.
 */
export const jobs: QueueDefinition<{ reservationId?: string }>[] = [
  {
    name: EXPIRE_HOLDS_QUEUE,
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 60,
    async handler(_data, job) {
      if (!job.app) throw new Error(`${EXPIRE_HOLDS_QUEUE}: the job engine was started without the app's services`);
      const expired = await expireHolds(job.app, new Date());
      if (expired) job.log.info({ expired }, 'holds expired');
      return { expired };
    },
  },
];
