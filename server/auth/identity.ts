import type Koa from 'koa';
import type { Knex } from 'knex';
import type { Logger } from '../logger.ts';
import { ANONYMOUS, type AppState, type AuthContext } from '../http/state.ts';
import { roleForMembership, type AccountRole, type MemberRole } from './roles.ts';
import { matchDigest, sha256, sha256Hex } from './secrets.ts';
import { flattenPermissions, type PermissionMap } from '../modules/apiKeys/models.ts';

export const SESSION_COOKIE = 'venue_session';

const isBanInForce = (banned: boolean, expiresAt: Date | null) => banned && (!expiresAt || new Date(expiresAt) > new Date());

export interface IdentityOptions {
  knex: Knex;
  superuserApiTokens: string[];
  logger: Logger;
}

/**
 * Resolves every request to an identity (spec §5.1): `x-api-key`, then a superuser token
 * (`x-api-token` or `Authorization: Bearer`), then the dashboard session cookie. The first that succeeds
 * decides; a credential that fails falls through to the next; nothing accepted → anonymous `public`.
 */
export function identityResolver(options: IdentityOptions) {
  const tokenDigests = options.superuserApiTokens.map(sha256);

  async function fromApiKey(raw: string, log: Logger): Promise<AuthContext | undefined> {
    const row = await options
      .knex('api_keys as k')
      .join('accounts as a', 'a.id', 'k.account_id')
      .where('k.key_hash', sha256Hex(raw))
      .first<{
        id: string; name: string; start: string; enabled: boolean; expires_at: Date | null; permissions: PermissionMap;
        account_id: string; email: string; account_name: string; account_role: AccountRole; banned: boolean; ban_expires_at: Date | null;
      } | undefined>('k.id', 'k.name', 'k.start', 'k.enabled', 'k.expires_at', 'k.permissions', 'k.account_id', 'a.email', 'a.name as account_name', 'a.role as account_role', 'a.banned', 'a.ban_expires_at');
    if (!row || !row.enabled) return undefined;
    if (row.expires_at && new Date(row.expires_at) <= new Date()) return undefined;
    if (row.account_role !== 'SUPERUSER') return undefined;
    // A banned owner's keys stop with the ban, as its sessions do.
    if (isBanInForce(row.banned, row.ban_expires_at)) return undefined;
    // Best effort: counted after the request goes on, never awaited, a failure only logged.
    options
      .knex('api_keys')
      .where('id', row.id)
      .update({ request_count: options.knex.raw('request_count + 1'), last_used_at: options.knex.fn.now() })
      .catch((err: unknown) => log.warn({ err, apiKeyId: row.id }, 'api key usage update failed'));
    return {
      role: 'superuser',
      authSource: 'api-key',
      permissions: flattenPermissions(typeof row.permissions === 'string' ? JSON.parse(row.permissions) : row.permissions),
      identity: {
        accountId: row.account_id,
        email: row.email,
        name: row.account_name,
        accountRole: row.account_role,
        apiKeyId: row.id,
        apiKeyName: row.name,
        apiKeyStart: row.start,
        apiKeyExpiresAt: row.expires_at ? new Date(row.expires_at) : null,
      },
    };
  }

  function fromSuperuserToken(raw: string): AuthContext | undefined {
    if (tokenDigests.length === 0) return undefined;
    const index = matchDigest(raw, tokenDigests);
    if (index < 0) return undefined;
    return { role: 'superuser', authSource: 'api-token', permissions: [], identity: { superuserTokenIndex: index } };
  }

  async function fromSession(token: string): Promise<AuthContext | undefined> {
    const row = await options
      .knex('sessions as s')
      .join('accounts as a', 'a.id', 's.account_id')
      .leftJoin('organization_members as m', function joinMembership() {
        this.on('m.organization_id', '=', 's.active_organization_id').andOn('m.account_id', '=', 's.account_id');
      })
      .where('s.token_hash', sha256Hex(token))
      .andWhere('s.expires_at', '>', options.knex.fn.now())
      .first<{
        session_id: string; expires_at: Date; active_organization_id: string | null; account_id: string; email: string;
        name: string; account_role: AccountRole; banned: boolean; ban_expires_at: Date | null; member_role: MemberRole | null;
      } | undefined>('s.id as session_id', 's.expires_at', 's.active_organization_id', 'a.id as account_id', 'a.email', 'a.name', 'a.role as account_role', 'a.banned', 'a.ban_expires_at', 'm.role as member_role');
    if (!row) return undefined;
    if (isBanInForce(row.banned, row.ban_expires_at)) return undefined;
    return {
      // The account role is never consulted here: only the membership in the active organization.
      role: roleForMembership(row.member_role),
      authSource: 'session',
      permissions: [],
      identity: {
        accountId: row.account_id,
        email: row.email,
        name: row.name,
        accountRole: row.account_role,
        sessionId: row.session_id,
        sessionExpiresAt: new Date(row.expires_at),
        activeOrganizationId: row.active_organization_id,
        memberRole: row.member_role,
      },
    };
  }

  const resolve = async (ctx: Koa.ParameterizedContext<AppState>): Promise<AuthContext> => {
    const apiKey = ctx.get('x-api-key');
    if (apiKey) {
      const auth = await fromApiKey(apiKey, ctx.state.log);
      if (auth) return auth;
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(ctx.get('authorization'))?.[1]?.trim();
    for (const token of [ctx.get('x-api-token'), bearer]) {
      if (!token) continue;
      const auth = fromSuperuserToken(token);
      if (auth) return auth;
    }
    const cookie = ctx.cookies.get(SESSION_COOKIE);
    if (cookie) {
      const auth = await fromSession(cookie);
      if (auth) return auth;
    }
    return ANONYMOUS;
  };

  const middleware: Koa.Middleware<AppState> = async (ctx, next) => {
    ctx.state.auth = await resolve(ctx);
    await next();
  };
  return { resolve, middleware };
}
