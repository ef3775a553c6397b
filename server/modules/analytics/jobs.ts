import type { QueueDefinition } from '../../platform/jobs/types.ts';
import { deliverMetaEvent } from './commands/deliverMetaEvent.ts';
import { META_SEND_QUEUE, META_SEND_RETRY_LIMIT } from './meta.ts';

/**
 * One Meta Conversions API event per job; its data is only the outbox row's id (server/modules/analytics/meta.ts).
 * 5xx, time-outs and network failures are retried (about 30 s, 1, 2, 4 minutes); a 4xx is audited and not retried.
 */
export const jobs: QueueDefinition<{ outboxId: string }>[] = [
  {
    name: META_SEND_QUEUE,
    retryLimit: META_SEND_RETRY_LIMIT,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    async handler(data, job) {
      if (!job.app) throw new Error(`${META_SEND_QUEUE}: the job engine was started without the app's services`);
      const outcome = await deliverMetaEvent(job.app, data.outboxId, job);
      if (outcome === 'refused') job.log.warn('Meta refused the event (4xx); not retried');
      return { outcome };
    },
  },
];
