import type { QueueDefinition } from '../../platform/jobs/types.ts';
import { deliverWebhookMessage } from './commands/deliverWebhookMessage.ts';
import { WEBHOOK_DELIVER_QUEUE, type WebhookDeliverJob } from './queues.ts';

/**
 * `webhooks.deliver` (`messageId`): one attempt of one message (./commands/deliverWebhookMessage.ts). The retry
 * schedule of a failed delivery is the module's own (each retry is a job of its own, enqueued with its `startAfter`
 * where the attempt's outcome is written): the engine's retries are only for a run that threw (the database gone).
 * Idempotent: a settled or missing message ends the run; a message another run is sending is looked at again later.
 * Four at once per process, so one slow endpoint (up to WEBHOOK_TIMEOUT_MS) does not hold up the others.
 */
export const jobs: QueueDefinition<WebhookDeliverJob>[] = [
  {
    name: WEBHOOK_DELIVER_QUEUE,
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    concurrency: 4,
    async handler(data, job) {
      if (!job.app) throw new Error(`${WEBHOOK_DELIVER_QUEUE}: the job engine was started without the app's services`);
      return { outcome: await deliverWebhookMessage(job.app, data.messageId) };
    },
  },
];
