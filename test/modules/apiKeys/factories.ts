import { randomToken, sha256Hex } from '../../../server/platform/auth/secrets.ts';
import { ApiKey, type PermissionMap } from '../../../server/modules/apiKeys/models.ts';
import type { Account } from '../../../server/modules/accounts/models.ts';
import { buildAccount, nextTimestamp } from '../accounts/factories.ts';

/** The apiKeys module's rows. */

/** An API key row; returns the plaintext key. The owner defaults to a new SUPERUSER account. */
const stamps = () => {
  const at = nextTimestamp();
  return { createdAt: at, updatedAt: at };
};

export async function buildApiKey(
  overrides: Partial<{ owner: Account; permissions: PermissionMap; enabled: boolean; expiresAt: Date | null; name: string }> = {},
) {
  const owner = overrides.owner ?? (await buildAccount({ role: 'SUPERUSER' }));
  const key = `vk_${randomToken(32)}`;
  const apiKey = await ApiKey.query().insertAndFetch({
    ...stamps(),
    name: overrides.name ?? 'test key',
    prefix: 'vk_',
    start: key.slice(0, 11),
    keyHash: sha256Hex(key),
    accountId: owner.id,
    enabled: overrides.enabled ?? true,
    expiresAt: overrides.expiresAt ?? null,
    permissions: overrides.permissions ?? {},
  });
  return { key, apiKey, owner };
}

/** `tables:read` → `{ tables: ['read'] }`. */
export function permissionMap(...permissions: string[]): PermissionMap {
  const map: PermissionMap = {};
  for (const permission of permissions) {
    const [resource, action] = permission.split(':');
    (map[resource] ??= []).push(action);
  }
  return map;
}
