import type Koa from 'koa';
import type { Knex } from 'knex';
import type { ApiKeyCredentials } from './apiKeyCredentials.ts';
import { ANONYMOUS, type AuthContext } from './context.ts';
import type { CredentialThrottle } from './credentialThrottle.ts';
import { isBanInForce, roleForMembership, type AccountRole, type MemberRole } from './roles.ts';
import { matchDigest, sha256, sha256Hex } from './secrets.ts';

export const SESSION_COOKIE = 'venue_session';

/** What identity resolution reads and writes on a request's state. */
interface IdentityState {
  auth: AuthContext;
}

export interface IdentityOptions {
  knex: Knex;
  superuserApiTokens: string[];
  credentials: ApiKeyCredentials;
  /** Counts wrong API keys and superuser tokens per client address (429 past the limit); none: nothing counted. */
  throttle?: CredentialThrottle;
  /**
   * Paths (lower case, no trailing slash) whose own token may come as `Authorization: Bearer` (the chat platform's
   * webhook, the metrics scraper): a Bearer that is no superuser token is judged there (access.ts), not counted here.
   */
  bearerTokenPaths?: ReadonlySet<string>;
}

/**
 * Resolves every request to an identity (spec §5.1): `x-api-key`, then a superuser token
 * (`x-api-token` or `Authorization: Bearer`), then the dashboard session cookie. The first that succeeds
 * decides; a credential that fails falls through to the next; nothing accepted → anonymous `public`.
 */
export function identityResolver(options: IdentityOptions) {
  const tokenDigests = options.superuserApiTokens.map(sha256);

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

  const { throttle, bearerTokenPaths } = options;
  const bearerJudgedElsewhere = (path: string) => Boolean(bearerTokenPaths?.has(path.toLowerCase().replace(/(.)\/+$/, '$1')));

  const resolve = async (ctx: Koa.ParameterizedContext<IdentityState>): Promise<AuthContext> => {
    const apiKey = ctx.get('x-api-key');
    if (apiKey) {
      const auth = await options.credentials.resolve(apiKey);
      if (auth) return auth;
      // A failure falls through (spec §5.1), but it is counted first: 429 once the address has guessed too often.
      await throttle?.failed(ctx.ip, 'api-key');
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(ctx.get('authorization'))?.[1]?.trim();
    const superuserToken = ctx.get('x-api-token');
    if (superuserToken) {
      const auth = fromSuperuserToken(superuserToken);
      if (auth) return auth;
      await throttle?.failed(ctx.ip, 'superuser-token');
    }
    if (bearer) {
      const auth = fromSuperuserToken(bearer);
      if (auth) return auth;
      if (!bearerJudgedElsewhere(ctx.path)) await throttle?.failed(ctx.ip, 'superuser-token');
    }
    // Parsing cookies is skipped for requests that carry none (machine clients, public pages).
    const cookie = ctx.headers.cookie ? ctx.cookies.get(SESSION_COOKIE) : undefined;
    if (cookie) {
      const auth = await fromSession(cookie);
      if (auth) return auth;
    }
    return ANONYMOUS;
  };

  const middleware: Koa.Middleware<IdentityState> = (ctx, next) => {
    const { headers } = ctx;
    // No credential at all (the public website): anonymous, without an await.
    if (!(headers['x-api-key'] || headers['x-api-token'] || headers.authorization || headers.cookie)) return next();
    // An address refused for guessing is refused whatever it presents now (a right key included), until its window ends.
    if (throttle && (headers['x-api-key'] || headers['x-api-token'] || headers.authorization)) throttle.check(ctx.ip);
    // A key remembered from an earlier request (it goes first, and wins when accepted): without an await either.
    const apiKey = headers['x-api-key'];
    if (typeof apiKey === 'string' && apiKey !== '') {
      const auth = options.credentials.resolveRemembered(apiKey);
      if (auth) {
        ctx.state.auth = auth;
        return next();
      }
    }
    return resolve(ctx).then((auth) => {
      ctx.state.auth = auth;
      return next();
    });
  };
  return { resolve, middleware };
}
