import type { AppContext } from '../../../platform/context.ts';
import type { Schema } from '../../../platform/http/handler.ts';
import { NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { checkEndpointUrl } from '../endpointUrl.ts';
import { WebhookEndpoint } from '../models.ts';
import { lockEndpoint } from '../queries.ts';
import { disableWebhookEndpoint } from './disableWebhookEndpoint.ts';

/**
 * Changes an endpoint's URL, event types or description, or turns it off (its pending messages fail) or on again (its
 * failures forgotten: `failingSince` and the disabling cleared). The row is locked, so a delivery's outcome and this
 * change do not cross.
 */
export async function updateWebhookEndpoint(app: AppContext, id: string, input: Schema<'WebhookEndpointUpdate'>): Promise<WebhookEndpoint> {
  const url = input.url === undefined ? undefined : checkEndpointUrl(input.url, app.webhookGuard);
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now }) => {
    const endpoint = await lockEndpoint(trx, id);
    if (!endpoint) throw NotFound('No such webhook endpoint.');
    const patch: Partial<WebhookEndpoint> = { updatedAt: now };
    if (url !== undefined) patch.url = url;
    if (input.eventTypes !== undefined) patch.eventTypes = input.eventTypes;
    if (input.description !== undefined) patch.description = input.description;
    if (input.enabled === true && !endpoint.enabled) Object.assign(patch, { enabled: true, disabledAt: null, disabledReason: null, failingSince: null });
    await WebhookEndpoint.query(trx).findById(id).patch(patch);
    if (input.enabled === false && endpoint.enabled) await disableWebhookEndpoint(trx, app, endpoint, now, { reason: 'MANUAL' });
    return (await WebhookEndpoint.query(trx).findById(id))!;
  });
}
