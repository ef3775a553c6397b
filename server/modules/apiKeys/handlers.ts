import { randomToken, sha256Hex } from '../../platform/auth/secrets.ts';
import type { AppContext } from '../../platform/context.ts';
import { grantablePermissions } from '../../platform/http/contract.ts';
import { json, noContent, type OperationHandlers } from '../../platform/http/handler.ts';
import { NotFound, Unprocessable, ValidationFailed, type FieldError } from '../../platform/http/problem.ts';
import { Account } from '../accounts/index.ts';
import { ApiKey, flattenPermissions, type PermissionMap } from './models.ts';
import { presentApiKey } from './presenters.ts';

/** Every key starts with this readable prefix, so a leaked one is recognizable (secret scanners, logs). */
export const API_KEY_PREFIX = 'vk_';
const DISPLAYED_CHARACTERS = 11;

/** Only permissions some key-callable operation declares can be granted: a typo never silently grants nothing. */
function checkGrant(app: AppContext, body: { permissions?: PermissionMap; expiresAt?: string | null }): void {
  const grantable = grantablePermissions(app.contract);
  const errors: FieldError[] = [];
  for (const permission of flattenPermissions(body.permissions)) {
    if (!grantable.has(permission)) {
      errors.push({ path: `body/permissions/${permission.split(':')[0]}`, message: `${permission} is not a permission any operation declares`, code: 'enum' });
    }
  }
  if (body.expiresAt && new Date(body.expiresAt) <= new Date()) {
    errors.push({ path: 'body/expiresAt', message: 'must be in the future', code: 'minimum' });
  }
  if (errors.length) throw ValidationFailed(errors);
}

async function findKeyOrFail(id: string): Promise<ApiKey> {
  const key = await ApiKey.query().findById(id).withGraphJoined('account');
  if (!key) throw NotFound('No API key with this id.');
  return key;
}

export const handlers = {
  async listApiKeys({ query }) {
    const keys = ApiKey.query().withGraphJoined('account').orderBy([{ column: 'api_keys.created_at', order: 'desc' }, { column: 'api_keys.id' }]);
    if (query.userId) keys.where('api_keys.account_id', query.userId);
    return json(200, { items: (await keys).map(presentApiKey) });
  },

  async createApiKey({ body, app }) {
    checkGrant(app, body);
    const owner = await Account.query().findById(body.userId);
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
    const created = await ApiKey.query().insertAndFetch({
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
    return json(201, { key, apiKey: presentApiKey(created) });
  },

  listApiKeyPermissions({ app }) {
    const items = [...grantablePermissions(app.contract)].map(([permission, operations]) => ({ permission, operations }));
    return json(200, { items });
  },

  async updateApiKey({ params, body, app }) {
    const existing = await findKeyOrFail(params.apiKeyId);
    checkGrant(app, body);
    const patch: Partial<ApiKey> = {};
    if (body.name !== undefined) patch.name = body.name;
    if (body.enabled !== undefined) patch.enabled = body.enabled;
    if (body.expiresAt !== undefined) patch.expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
    if (body.permissions !== undefined) patch.permissions = body.permissions;
    await ApiKey.query().patch(patch).where('id', existing.id);
    app.credentials.invalidate();
    return json(200, presentApiKey(await findKeyOrFail(existing.id)));
  },

  async deleteApiKey({ params, app }) {
    const deleted = await ApiKey.query().deleteById(params.apiKeyId);
    app.credentials.invalidate();
    if (deleted === 0) throw NotFound('No API key with this id.');
    return noContent();
  },
} satisfies Partial<OperationHandlers>;
