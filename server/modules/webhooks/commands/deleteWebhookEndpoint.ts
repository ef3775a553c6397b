import type { AppContext } from '../../../platform/context.ts';
import { NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { WebhookEndpoint } from '../models.ts';

/** Deletes an endpoint with its messages and their attempts; a delivery job still queued for one finds nothing and ends. */
export async function deleteWebhookEndpoint(app: Pick<AppContext, 'db' | 'logger'>, id: string): Promise<void> {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    if (!(await WebhookEndpoint.query(trx).deleteById(id))) throw NotFound('No such webhook endpoint.');
  });
}
