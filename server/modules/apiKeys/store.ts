import type { Knex } from 'knex';
import type { ApiKeyIdentity, ApiKeyStore } from '../../platform/auth/apiKeyCredentials.ts';
import { flattenPermissions, type PermissionMap } from '../../platform/auth/permissions.ts';
import { isBanInForce, type AccountRole } from '../../platform/auth/roles.ts';

/**
 * The platform's API-key resolver (server/platform/auth/apiKeyCredentials.ts) reads and counts keys through this
 * store: the `api_keys` rows are this module's (test/modules/tableOwners.spec.ts), the owner's `accounts` row is
 * read beside them. Built once per app by server/app.ts.
 */
export function apiKeyStore(knex: Knex): ApiKeyStore {
  return {
    async find(hash) {
      const row = await knex('api_keys as k')
        .join('accounts as a', 'a.id', 'k.account_id')
        .where('k.key_hash', hash)
        .first<{
          id: string; name: string; start: string; enabled: boolean; expires_at: Date | null; permissions: PermissionMap | string;
          account_id: string; email: string; account_name: string; account_role: AccountRole; banned: boolean; ban_expires_at: Date | null;
        } | undefined>('k.id', 'k.name', 'k.start', 'k.enabled', 'k.expires_at', 'k.permissions', 'k.account_id', 'a.email', 'a.name as account_name', 'a.role as account_role', 'a.banned', 'a.ban_expires_at');
      if (!row || !row.enabled) return undefined;
      // Only a SUPERUSER account can own a working key; a banned owner's keys stop with the ban.
      if (row.account_role !== 'SUPERUSER' || isBanInForce(row.banned, row.ban_expires_at)) return undefined;
      return {
        id: row.id,
        name: row.name,
        start: row.start,
        expiresAt: row.expires_at ? new Date(row.expires_at) : null,
        permissions: flattenPermissions(typeof row.permissions === 'string' ? JSON.parse(row.permissions) : row.permissions),
        accountId: row.account_id,
        email: row.email,
        accountName: row.account_name,
        accountRole: row.account_role,
      };
    },

    async recordUses(id, count, lastUsedAt) {
      await knex('api_keys')
        .where('id', id)
        .update({
          request_count: knex.raw('request_count + ?', [count]),
          last_used_at: knex.raw('greatest(coalesce(last_used_at, ?), ?)', [lastUsedAt, lastUsedAt]),
        });
    },
  };
}
