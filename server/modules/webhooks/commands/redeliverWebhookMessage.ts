import type { AppContext } from '../../../platform/context.ts';
import { Conflict, NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { WebhookMessage } from '../models.ts';
import { lockEndpoint, lockMessage } from '../queries.ts';
import { WEBHOOK_DELIVER_QUEUE, type WebhookDeliverJob } from '../queues.ts';

/**
 * Sends a message again (issue 36 §3: manual redelivery), whatever its status: PENDING again with a fresh retry
 * schedule, its next attempt marked manual, its job enqueued now in this transaction. The body and `webhook-id` stay
 * (the receiver deduplicates); it still waits for an earlier pending message of its subject. 409
 * `webhook_endpoint_disabled` while the endpoint is off (it would only fail again).
 */
export async function redeliverWebhookMessage(app: Pick<AppContext, 'db' | 'logger' | 'jobs'>, messageId: string): Promise<WebhookMessage> {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now }) => {
    const found = await WebhookMessage.query(trx).findById(messageId).select('endpoint_id');
    if (!found) throw NotFound('No such webhook message.');
    // The lock order every writer keeps: the endpoint, then the message.
    const endpoint = await lockEndpoint(trx, found.endpointId);
    const message = await lockMessage(trx, messageId);
    if (!endpoint || !message) throw NotFound('No such webhook message.');
    if (!endpoint.enabled) throw Conflict('webhook_endpoint_disabled', 'The endpoint is turned off: turn it on before redelivering its messages.');
    const updated = await message.$query(trx).patchAndFetch({ status: 'PENDING', roundAttempts: 0, manual: true, nextAttemptAt: now, failedAt: null, failureReason: null, updatedAt: now });
    await app.jobs.enqueue(WEBHOOK_DELIVER_QUEUE, { messageId } satisfies WebhookDeliverJob, { trx });
    return updated;
  });
}
