import type { AppContext } from '../../../platform/context.ts';
import { NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { newWebhookSecret } from '../eventTypes.ts';
import { WebhookEndpoint } from '../models.ts';
import { lockEndpoint } from '../queries.ts';
import { sealWebhookSecret } from '../secrets.ts';

/**
 * A new signing secret (issue 36 §3), answered in the clear this once. The one it replaces keeps signing beside it for
 * WEBHOOK_SECRET_OVERLAP_HOURS (Standard Webhooks: several signatures in one header), so a receiver switches without
 * losing a message; a secret from an earlier rotation still in its overlap stops at once (two signatures at most).
 */
export async function rotateWebhookEndpointSecret(app: Pick<AppContext, 'db' | 'logger' | 'config'>, id: string): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const secret = newWebhookSecret();
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now }) => {
    const endpoint = await lockEndpoint(trx, id);
    if (!endpoint) throw NotFound('No such webhook endpoint.');
    const overlapMs = app.config.webhooks.secretOverlapHours * 3_600_000;
    const updated = await WebhookEndpoint.query(trx).patchAndFetchById(id, {
      secretSealed: await sealWebhookSecret(trx, secret),
      previousSecretSealed: overlapMs > 0 ? endpoint.secretSealed : null,
      previousSecretExpiresAt: overlapMs > 0 ? new Date(now.getTime() + overlapMs) : null,
      secretRotatedAt: now,
      updatedAt: now,
    });
    return { endpoint: updated, secret };
  });
}
