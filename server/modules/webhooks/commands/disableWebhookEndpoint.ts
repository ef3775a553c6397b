import type { Knex } from 'knex';
import type { AppContext } from '../../../platform/context.ts';
import { administratorAddresses } from '../../accounts/index.ts';
import { recordEmail } from '../../email/index.ts';
import { WebhookEndpoint } from '../models.ts';
import { failPendingMessages } from '../queries.ts';

/**
 * Turns an endpoint off, in the caller's unit of work (an administrator's change, or a delivery that found every
 * attempt failing for WEBHOOK_DISABLE_AFTER_HOURS): no message is written for it any more, and its pending ones fail
 * (`endpoint_disabled`; they can be redelivered once it is on again). When it was the failures, the administrators are
 * e-mailed through the ledger, in this same transaction (VENUE_NOTIFICATIONS_EMAIL when there is none). Answers how
 * many pending messages failed.
 */
export async function disableWebhookEndpoint(
  trx: Knex.Transaction,
  app: AppContext,
  endpoint: WebhookEndpoint,
  now: Date,
  cause: { reason: 'MANUAL' } | { reason: 'FAILING'; failingSince: Date; lastError: string },
): Promise<number> {
  await WebhookEndpoint.query(trx).findById(endpoint.id).patch({ enabled: false, disabledAt: now, disabledReason: cause.reason, updatedAt: now });
  const failed = await failPendingMessages(trx, endpoint.id, now);
  if (cause.reason !== 'FAILING') return failed;
  const recipients = await administratorAddresses(trx, now);
  if (!recipients.length && app.config.venueNotificationsEmail) recipients.push(app.config.venueNotificationsEmail);
  if (!recipients.length) app.logger.warn({ endpointId: endpoint.id }, 'webhook endpoint disabled; no administrator to tell');
  const url = new URL(endpoint.url);
  const deps = { enqueue: app.jobs.enqueue.bind(app.jobs), emailFrom: app.config.emailFrom, timeZone: app.config.venueTimezone };
  for (const to of recipients) {
    await recordEmail(
      trx,
      {
        template: 'webhook-endpoint-disabled',
        to,
        locale: app.config.defaultLocale,
        data: {
          endpointUrl: `${url.origin}${url.pathname}`,
          description: endpoint.description,
          failingSince: cause.failingSince,
          disabledAt: now,
          lastError: cause.lastError,
          pendingFailed: failed,
        },
      },
      deps,
    );
  }
  return failed;
}
