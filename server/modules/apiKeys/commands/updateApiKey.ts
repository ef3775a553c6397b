import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { checkGrant } from '../grants.ts';
import { ApiKey } from '../models.ts';
import { findKeyOrFail } from '../queries.ts';

export type UpdateApiKeyInput = operations['updateApiKey']['requestBody']['content']['application/json'];

/** Renames, enables or disables a key, or changes its expiry or permissions; every process forgets the key once committed. */
export async function updateApiKey(app: Pick<AppContext, 'db' | 'logger' | 'contract' | 'credentials'>, apiKeyId: string, body: UpdateApiKeyInput): Promise<ApiKey> {
  const existing = await findKeyOrFail(apiKeyId);
  checkGrant(app, body);
  const patch: Partial<ApiKey> = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.enabled !== undefined) patch.enabled = body.enabled;
  if (body.expiresAt !== undefined) patch.expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
  if (body.permissions !== undefined) patch.permissions = body.permissions;
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await ApiKey.query(trx).patch(patch).where('id', existing.id);
    await app.credentials.changed({ apiKeyId: existing.id }, trx);
  });
  return findKeyOrFail(existing.id);
}
