import type { AppContext } from '../../../platform/context.ts';
import type { Schema } from '../../../platform/http/handler.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { checkEndpointUrl } from '../endpointUrl.ts';
import { newWebhookSecret } from '../eventTypes.ts';
import { WebhookEndpoint } from '../models.ts';
import { sealWebhookSecret } from '../secrets.ts';

/**
 * Registers an endpoint (issue 36 §3) with a new signing secret, kept sealed; answers the secret in the clear this once
 * (422 `webhook_url_refused` for a URL the venue does not send to).
 */
export async function createWebhookEndpoint(
  app: Pick<AppContext, 'db' | 'logger' | 'webhookGuard'>,
  input: Schema<'WebhookEndpointCreate'>,
  createdBy: string,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const url = checkEndpointUrl(input.url, app.webhookGuard);
  const secret = newWebhookSecret();
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now }) => {
    const enabled = input.enabled ?? true;
    const endpoint = await WebhookEndpoint.query(trx).insertAndFetch({
      url,
      description: input.description ?? null,
      eventTypes: input.eventTypes,
      enabled,
      disabledAt: enabled ? null : now,
      disabledReason: enabled ? null : 'MANUAL',
      secretSealed: await sealWebhookSecret(trx, secret),
      createdBy,
      createdAt: now,
      updatedAt: now,
    });
    return { endpoint, secret };
  });
}
