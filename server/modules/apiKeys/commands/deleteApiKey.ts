import type { AppContext } from '../../../platform/context.ts';
import { NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { ApiKey } from '../models.ts';

/** Deletes a key (404 when there is none); every process forgets it once committed. */
export async function deleteApiKey(app: Pick<AppContext, 'db' | 'logger' | 'credentials'>, apiKeyId: string): Promise<void> {
  const deleted = await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await app.credentials.changed({ apiKeyId }, trx);
    return ApiKey.query(trx).deleteById(apiKeyId);
  });
  if (deleted === 0) throw NotFound('No API key with this id.');
}
