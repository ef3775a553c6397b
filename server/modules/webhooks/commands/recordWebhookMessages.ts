import type { DomainContext } from '../../../domain/events.ts';
import type { WebhookBody, WebhookEventType } from '../eventTypes.ts';
import { WebhookMessage } from '../models.ts';
import { endpointsWanting } from '../queries.ts';
import { WEBHOOK_DELIVER_QUEUE, type WebhookDeliverJob } from '../queues.ts';

/**
 * The outbox write of a webhook event (issue 36 §3), in the transaction of the command whose domain event it is: one
 * message per enabled endpoint that wants `type`, each with its delivery job enqueued in that same transaction. A
 * rolled-back command leaves neither (nothing is sent for it); a committed one has both, so a crash after the commit
 * loses nothing (the job engine runs the job once the process is back). `data` is read only when some endpoint wants
 * the event; `orderingKey` names the subject (`reservation:<id>`, …) whose messages reach an endpoint in this order.
 */
export async function recordWebhookMessages(
  ctx: DomainContext,
  type: WebhookEventType,
  orderingKey: string,
  data: () => Promise<WebhookBody['data'] | undefined>,
): Promise<number> {
  const endpoints = await endpointsWanting(ctx.trx, type);
  if (!endpoints.length) return 0;
  const payload = await data();
  if (!payload) return 0;
  const body = JSON.stringify({ type, timestamp: ctx.now.toISOString(), data: payload });
  for (const endpoint of endpoints) {
    const message = await WebhookMessage.query(ctx.trx).insert({ endpointId: endpoint.id, eventType: type, orderingKey, body, nextAttemptAt: ctx.now, createdAt: ctx.now, updatedAt: ctx.now });
    await ctx.app.jobs.enqueue(WEBHOOK_DELIVER_QUEUE, { messageId: message.id } satisfies WebhookDeliverJob, { trx: ctx.trx });
  }
  return endpoints.length;
}
