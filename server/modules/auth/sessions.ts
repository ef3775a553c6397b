import type { Knex } from 'knex';
import { SESSION_COOKIE } from '../../platform/auth/identity.ts';
import { roleForMembership } from '../../platform/auth/roles.ts';
import { randomToken, sha256Hex } from '../../platform/auth/secrets.ts';
import { cookie, expiredCookie, type Call, type ReplyCookie } from '../../platform/http/handler.ts';
import { Problem, Unauthenticated } from '../../platform/http/problem.ts';
import type { AuthContext } from '../../platform/http/state.ts';
import type { Account, OrganizationMember } from '../accounts/index.ts';
import { Session } from './models.ts';

/** The session cookie's policy (`config.sessionCookie`): SameSite (Lax by default), and Secure whatever the request in
 * production or with SameSite=None; otherwise Secure when the request came over HTTPS. */
export interface CookiePolicy {
  sameSite: 'lax' | 'strict' | 'none';
  alwaysSecure: boolean;
}

const DEFAULT_POLICY: CookiePolicy = { sameSite: 'lax', alwaysSecure: false };

const cookieOptions = (policy: CookiePolicy) =>
  ({ httpOnly: true, sameSite: policy.sameSite, path: '/', ...(policy.alwaysSecure ? { secure: true } : {}) }) as const;

/**
 * Opens a session (only the token's hash is stored) and returns it with the HttpOnly cookie for the reply.
 * `client` is the peer address and user agent, kept for the account's session list. A session is opened only by a
 * sign-in whose credential was just verified (a password, a passkey): it is authenticated now (`authenticatedAt`).
 */
export async function openSession(
  client: { ip: string; userAgent: string },
  account: Account,
  activeOrganizationId: string | null,
  ttlSeconds: number,
  trx?: Knex.Transaction,
  policy: CookiePolicy = DEFAULT_POLICY,
): Promise<{ session: Session; cookie: ReplyCookie }> {
  const token = randomToken(32);
  const now = new Date();
  const session = await Session.query(trx).insertAndFetch({
    tokenHash: sha256Hex(token),
    accountId: account.id,
    activeOrganizationId,
    authenticatedAt: now,
    expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
    ip: client.ip || null,
    userAgent: client.userAgent.slice(0, 500) || null,
  });
  return { session, cookie: cookie(SESSION_COOKIE, token, { ...cookieOptions(policy), maxAge: ttlSeconds }) };
}

/** The Set-Cookie that removes the session cookie. */
export const clearedSessionCookie = (policy: CookiePolicy = DEFAULT_POLICY): ReplyCookie => expiredCookie(SESSION_COOKIE, cookieOptions(policy));

export function sessionTokenHash(call: Pick<Call, 'cookie'>): string | undefined {
  const token = call.cookie(SESSION_COOKIE);
  return token ? sha256Hex(token) : undefined;
}

export async function revokeSessions(accountId: string, trx?: Knex.Transaction): Promise<number> {
  return Session.query(trx).delete().where('account_id', accountId);
}

/** How recent a session's sign-in must be for what asks for one (adding a passkey): 10 minutes, as GitHub and Google ask. */
export const RECENT_SIGN_IN_SECONDS = 600;

/**
 * Refuses (403 `reauthentication_required`) unless the session signed in — with a password or a passkey — within
 * RECENT_SIGN_IN_SECONDS: a session cookie alone, however valid, is not enough to add a credential to its account
 * (one that would outlive the session, a password reset or a ban). Sign in again, then retry.
 */
export async function requireRecentSignIn(sessionId: string | undefined, now = new Date()): Promise<void> {
  const session = sessionId ? await Session.query().findById(sessionId).select('authenticated_at') : undefined;
  if (!session) throw Unauthenticated('Sign in to the dashboard first.');
  const age = now.getTime() - new Date(session.authenticatedAt).getTime();
  if (age > RECENT_SIGN_IN_SECONDS * 1000) {
    throw new Problem(403, 'reauthentication_required', 'Recent sign-in required', {
      detail: `This needs a sign-in (password or passkey) within the last ${RECENT_SIGN_IN_SECONDS / 60} minutes; this session signed in earlier. Sign in again, then retry.`,
    });
  }
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
