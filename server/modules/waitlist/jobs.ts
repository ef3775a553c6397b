import type { QueueDefinition } from '../../platform/jobs/types.ts';
import { expireOffers } from './commands/expireOffers.ts';
import { notifyNextWaiting } from './commands/notifyNextWaiting.ts';
import { WAITLIST_EXPIRE_OFFERS_QUEUE, WAITLIST_NOTIFY_NEXT_QUEUE } from './queues.ts';

/**
 * - `waitlist.expire-offers`: scheduled at each offer's expiry; expires every offer past its time (not only its
 *   own, so a late or missed run is caught up) and notifies the next waiting entries of those events.
 * - `waitlist.notify-next` (`eventId`): queued when seats free up; offers them in joining order.
 * Both are idempotent: a second run finds nothing left to do.
 */
export const jobs: QueueDefinition<{ eventId?: string }>[] = [
  {
    name: WAITLIST_EXPIRE_OFFERS_QUEUE,
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    async handler(_data, job) {
      if (!job.app) throw new Error(`${WAITLIST_EXPIRE_OFFERS_QUEUE}: the job engine was started without the app's services`);
      const events = await expireOffers(job.app.db.knex);
      let notified = 0;
      for (const eventId of events) notified += await notifyNextWaiting(job.app, eventId);
      return { events: events.length, notified };
    },
  },
  {
    name: WAITLIST_NOTIFY_NEXT_QUEUE,
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    async handler(data, job) {
      if (!job.app) throw new Error(`${WAITLIST_NOTIFY_NEXT_QUEUE}: the job engine was started without the app's services`);
      if (!data.eventId) return { notified: 0 };
      return { notified: await notifyNextWaiting(job.app, data.eventId) };
    },
  },
];
