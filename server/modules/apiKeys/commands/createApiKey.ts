import type { operations } from '../../../../sdk/schema.d.ts';
import { randomToken, sha256Hex } from '../../../platform/auth/secrets.ts';
import type { AppContext } from '../../../platform/context.ts';
import { NotFound, Unprocessable } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Account } from '../../accounts/index.ts';
import { API_KEY_PREFIX, checkGrant, DISPLAYED_CHARACTERS } from '../grants.ts';
import { ApiKey } from '../models.ts';

export type CreateApiKeyInput = operations['createApiKey']['requestBody']['content']['application/json'];

/**
 * Creates an API key for an account holding the SUPERUSER account role (spec §2.2; 422 `owner_not_superuser`
 * otherwise). Only the key's SHA-256 is stored; the key itself is returned once, here.
 */
export async function createApiKey(app: Pick<AppContext, 'db' | 'logger' | 'contract'>, body: CreateApiKeyInput): Promise<{ key: string; apiKey: ApiKey }> {
  checkGrant(app, body);
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const owner = await Account.query(trx).findById(body.userId);
    if (!owner) throw NotFound('No account with this userId.');
    if (owner.role !== 'SUPERUSER') {
      // Spec §2.2: a key's owner holds the SUPERUSER account role (and §5.1 checks it on every request).
      throw Unprocessable(
        'owner_not_superuser',
        `API keys can only be owned by an account with the SUPERUSER account role, and ${owner.email} has ${owner.role}. Give it that role first (PATCH /api/sudo/users/${owner.id} with role SUPERUSER).`,
        [{ path: 'body/userId', message: `${owner.email} does not have the SUPERUSER account role`, code: 'owner_not_superuser' }],
      );
    }
    const key = API_KEY_PREFIX + randomToken(32);
    const created = await ApiKey.query(trx).insertAndFetch({
      name: body.name,
      prefix: API_KEY_PREFIX,
      start: key.slice(0, DISPLAYED_CHARACTERS),
      keyHash: sha256Hex(key),
      accountId: owner.id,
      enabled: body.enabled ?? true,
      expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
      permissions: body.permissions,
    });
    created.account = owner;
    return { key, apiKey: created };
  });
}
