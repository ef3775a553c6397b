import type { Knex } from 'knex';
import type { AppContext } from '../../../platform/context.ts';
import { guardedPost, type OutboundAnswer } from '../../../platform/integrations/outboundHttp.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { failedLongEnough, retryDelaySeconds, signatureHeader } from '../eventTypes.ts';
import { WebhookAttempt, WebhookEndpoint, WebhookMessage } from '../models.ts';
import { hasEarlierPending, lockEndpoint, lockMessage, nextPending } from '../queries.ts';
import { WEBHOOK_DELIVER_QUEUE, type WebhookDeliverJob } from '../queues.ts';
import { signingSecrets } from '../secrets.ts';
import type { DeliveryResult } from '../services.ts';
import { disableWebhookEndpoint } from './disableWebhookEndpoint.ts';

/**
 * One run of the `webhooks.deliver` job for one message (issue 36 §3), in three steps, the request outside any
 * transaction:
 *
 * 1. Claim, with the endpoint and the message locked: nothing to do when the message is gone or settled; failed when
 *    its endpoint was turned off meanwhile; `waiting` when an earlier message of its subject (a reservation) is still
 *    pending at this endpoint (that one's outcome queues this one: ordering per reservation per endpoint); `busy` when
 *    another run is sending it (it looks again when that attempt must have ended, a dead process's included).
 *    Otherwise the message is claimed for the time-out plus a margin.
 * 2. The POST, signed per Standard Webhooks (`webhook-id` the message's id, `webhook-timestamp` now, `webhook-signature`
 *    with the endpoint's secret and, during a rotation's overlap, the previous one), through the address guard.
 * 3. The outcome, with both locked again: one attempt row; a 2xx delivers it and clears the endpoint's failures; a
 *    failure schedules the next attempt (WEBHOOK_RETRY_SCHEDULE_SECONDS, its job enqueued in this transaction) or,
 *    with the schedule spent, fails it; a settled message queues the next one of its subject. An endpoint whose
 *    attempts have all failed for WEBHOOK_DISABLE_AFTER_HOURS is disabled and the administrators told. The delivery
 *    counter moves once this has committed.
 *
 * At least once: a process that dies after the POST and before step 3 sends it again.
 */
export type WebhookDeliveryOutcome = 'gone' | 'settled' | 'endpoint_disabled' | 'waiting' | 'busy' | 'succeeded' | 'retrying' | 'failed';

/** Past the time-out, a claim is left to another run after this margin (the outcome's write, a slow database). */
const CLAIM_MARGIN_MS = 30_000;
/** The answer's excerpt kept in the attempt row. */
const EXCERPT_BYTES = 1024;

interface Judged {
  outcome: 'SUCCEEDED' | 'FAILED';
  result: DeliveryResult;
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
  latencyMs: number;
}

function judge(answer: OutboundAnswer): Judged {
  if (!answer.answered) return { outcome: 'FAILED', result: answer.failure, statusCode: null, error: answer.error, excerpt: null, latencyMs: answer.latencyMs };
  const { statusCode, excerpt, latencyMs } = answer;
  const common = { statusCode, excerpt: excerpt || null, latencyMs };
  if (statusCode >= 200 && statusCode < 300) return { ...common, outcome: 'SUCCEEDED', result: 'succeeded', error: null };
  if (statusCode >= 300 && statusCode < 400) {
    const where = answer.location ? ` to ${answer.location.slice(0, 300)}` : '';
    return { ...common, outcome: 'FAILED', result: 'redirect', error: `the endpoint answered ${statusCode}: the redirect${where} was not followed` };
  }
  return { ...common, outcome: 'FAILED', result: 'http_error', error: `the endpoint answered ${statusCode}` };
}

/** Locks the message's endpoint, then the message (the lock order of every writer here). */
async function lockBoth(trx: Knex.Transaction, messageId: string): Promise<{ endpoint: WebhookEndpoint; message: WebhookMessage } | undefined> {
  const found = await WebhookMessage.query(trx).findById(messageId).select('endpoint_id');
  if (!found) return undefined;
  const endpoint = await lockEndpoint(trx, found.endpointId);
  const message = await lockMessage(trx, messageId);
  return endpoint && message ? { endpoint, message } : undefined;
}

/** Queues the next pending message of the settled one's subject at its endpoint, in `trx`. */
async function releaseNext(app: AppContext, trx: Knex.Transaction, message: WebhookMessage): Promise<void> {
  const next = await nextPending(trx, message);
  if (next) await app.jobs.enqueue(WEBHOOK_DELIVER_QUEUE, { messageId: next } satisfies WebhookDeliverJob, { trx });
}

export async function deliverWebhookMessage(app: AppContext, messageId: string): Promise<WebhookDeliveryOutcome> {
  const deps = { knex: app.db.knex, logger: app.logger };
  const { timeoutMs, retryScheduleSeconds, disableAfterHours } = app.config.webhooks;

  const claim = await inUnitOfWork(deps, async ({ trx, now }) => {
    const locked = await lockBoth(trx, messageId);
    if (!locked) return 'gone' as const;
    const { endpoint, message } = locked;
    if (message.status !== 'PENDING') return 'settled' as const;
    if (!endpoint.enabled) {
      // Written as the endpoint was being turned off (that transaction could not see it): it fails as its peers did.
      await WebhookMessage.query(trx).findById(message.id).patch({ status: 'FAILED', failureReason: 'endpoint_disabled', failedAt: now, nextAttemptAt: null, updatedAt: now });
      return 'endpoint_disabled' as const;
    }
    if (await hasEarlierPending(trx, message)) return 'waiting' as const;
    if (message.claimedUntil && new Date(message.claimedUntil) > now) {
      await app.jobs.enqueue(WEBHOOK_DELIVER_QUEUE, { messageId } satisfies WebhookDeliverJob, { trx, startAfter: new Date(message.claimedUntil) });
      return 'busy' as const;
    }
    await WebhookMessage.query(trx).findById(message.id).patch({ claimedUntil: new Date(now.getTime() + timeoutMs + CLAIM_MARGIN_MS), updatedAt: now });
    return { url: endpoint.url, body: message.body, secrets: await signingSecrets(trx, endpoint, now) };
  });
  if (typeof claim === 'string') return claim;

  const startedAt = new Date();
  const judged: Judged = claim.secrets.length
    ? judge(
        await guardedPost(claim.url, claim.body, {
          guard: app.webhookGuard,
          timeoutMs,
          excerptBytes: EXCERPT_BYTES,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'venue-webhooks/1',
            'webhook-id': messageId,
            'webhook-timestamp': String(Math.floor(startedAt.getTime() / 1000)),
            'webhook-signature': signatureHeader(claim.secrets, messageId, startedAt, claim.body),
          },
        }),
      )
    : { outcome: 'FAILED', result: 'network', statusCode: null, error: "the endpoint's secret cannot be opened with this database's key: rotate it", excerpt: null, latencyMs: 0 };

  return inUnitOfWork(deps, async ({ trx, now, afterCommit }) => {
    const locked = await lockBoth(trx, messageId);
    if (!locked) return 'gone' as const;
    const { endpoint, message } = locked;
    const succeeded = judged.outcome === 'SUCCEEDED';
    const attempts = message.attempts + 1;
    await WebhookAttempt.query(trx).insert({
      messageId,
      attempt: attempts,
      manual: message.manual,
      startedAt,
      latencyMs: judged.latencyMs,
      statusCode: judged.statusCode,
      outcome: judged.outcome,
      error: judged.error,
      responseExcerpt: judged.excerpt,
      createdAt: now,
    });
    afterCommit(() => app.webhookMetrics?.deliveries.inc({ result: judged.result }));
    const common = { attempts, lastAttemptAt: startedAt, claimedUntil: null, manual: false, updatedAt: now };
    if (message.status !== 'PENDING') {
      // Settled meanwhile (its endpoint turned off): the attempt is on record, and a delivery is a delivery.
      await WebhookMessage.query(trx).findById(messageId).patch(succeeded ? { ...common, status: 'SUCCEEDED', deliveredAt: now, failedAt: null, failureReason: null } : common);
      return succeeded ? ('succeeded' as const) : ('failed' as const);
    }
    const roundAttempts = message.roundAttempts + 1;
    if (succeeded) {
      await WebhookMessage.query(trx).findById(messageId).patch({ ...common, roundAttempts, status: 'SUCCEEDED', deliveredAt: now, nextAttemptAt: null });
      if (endpoint.failingSince) await WebhookEndpoint.query(trx).findById(endpoint.id).patch({ failingSince: null, updatedAt: now });
      await releaseNext(app, trx, message);
      return 'succeeded' as const;
    }
    // The disabling rule: every attempt at this endpoint has failed since `failingSince`. An endpoint turned off now
    // fails this message with its other pending ones (no retry is scheduled for it).
    const failingSince = endpoint.failingSince ? new Date(endpoint.failingSince) : startedAt;
    if (!endpoint.failingSince) await WebhookEndpoint.query(trx).findById(endpoint.id).patch({ failingSince, updatedAt: now });
    if (endpoint.enabled && failedLongEnough(failingSince, now, disableAfterHours)) {
      await WebhookMessage.query(trx).findById(messageId).patch({ ...common, roundAttempts, nextAttemptAt: null });
      await disableWebhookEndpoint(trx, app, endpoint, now, { reason: 'FAILING', failingSince, lastError: judged.error ?? 'failed' });
      afterCommit(() => app.webhookMetrics?.endpointsDisabled.inc());
      app.logger.warn({ endpointId: endpoint.id, failingSince }, 'webhook endpoint disabled: every attempt failed');
      return 'failed' as const;
    }
    const delay = retryDelaySeconds(retryScheduleSeconds, roundAttempts);
    if (delay !== undefined) {
      const nextAttemptAt = new Date(now.getTime() + delay * 1000);
      await WebhookMessage.query(trx).findById(messageId).patch({ ...common, roundAttempts, nextAttemptAt });
      await app.jobs.enqueue(WEBHOOK_DELIVER_QUEUE, { messageId } satisfies WebhookDeliverJob, { trx, startAfter: nextAttemptAt });
      return 'retrying' as const;
    }
    await WebhookMessage.query(trx).findById(messageId).patch({ ...common, roundAttempts, status: 'FAILED', failureReason: 'retries_exhausted', failedAt: now, nextAttemptAt: null });
    await releaseNext(app, trx, message);
    return 'failed' as const;
  });
}
