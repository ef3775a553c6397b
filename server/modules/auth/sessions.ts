import type Koa from 'koa';
import type { Knex } from 'knex';
import { SESSION_COOKIE } from '../../auth/identity.ts';
import { roleForMembership } from '../../auth/roles.ts';
import { randomToken, sha256Hex } from '../../auth/secrets.ts';
import type { AuthContext } from '../../http/state.ts';
import type { Account, OrganizationMember } from '../accounts/models.ts';
import { Session } from '../accounts/models.ts';

/** Opens a session (only the token's hash is stored) and sets the HttpOnly cookie. */
export async function openSession(
  koa: Koa.Context,
  account: Account,
  activeOrganizationId: string | null,
  ttlSeconds: number,
  trx?: Knex.Transaction,
): Promise<Session> {
  const token = randomToken(32);
  const session = await Session.query(trx).insertAndFetch({
    tokenHash: sha256Hex(token),
    accountId: account.id,
    activeOrganizationId,
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
    ip: koa.ip || null,
    userAgent: koa.get('user-agent').slice(0, 500) || null,
  });
  koa.cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: koa.secure,
    path: '/',
    maxAge: ttlSeconds * 1000,
    overwrite: true,
  });
  return session;
}

export function clearSessionCookie(koa: Koa.Context): void {
  koa.cookies.set(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure: koa.secure, path: '/', maxAge: 0, overwrite: true });
}

export function sessionTokenHash(koa: Koa.Context): string | undefined {
  const token = koa.cookies.get(SESSION_COOKIE);
  return token ? sha256Hex(token) : undefined;
}

export async function revokeSessions(accountId: string, trx?: Knex.Transaction): Promise<number> {
  return Session.query(trx).delete().where('account_id', accountId);
}

/** The identity a session resolves to, built without another round trip (same rules as the resolver). */
export function sessionAuth(account: Account, session: Session, memberships: OrganizationMember[]): AuthContext {
  const active = memberships.find((m) => m.organizationId === session.activeOrganizationId);
  return {
    role: roleForMembership(active?.role),
    authSource: 'session',
    permissions: [],
    identity: {
      accountId: account.id,
      email: account.email,
      name: account.name,
      accountRole: account.role,
      sessionId: session.id,
      sessionExpiresAt: new Date(session.expiresAt),
      activeOrganizationId: session.activeOrganizationId,
      memberRole: active?.role ?? null,
    },
  };
}
