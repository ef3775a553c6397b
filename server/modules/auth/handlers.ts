import { verifyPassword } from '../../platform/auth/secrets.ts';
import { json, noContent, withCookies, type OperationHandlers } from '../../platform/http/handler.ts';
import { Forbidden, InvalidCredentials } from '../../platform/http/problem.ts';
import { Account, OrganizationMember, Session } from '../accounts/index.ts';
import { presentPrincipal } from '../accounts/index.ts';
import { loginEmail, membershipsOf } from '../accounts/index.ts';
import { clearedSessionCookie, openSession, sessionAuth, sessionTokenHash } from './sessions.ts';

export const handlers = {
  async signIn(call) {
    const { body, app, ip, log } = call;
    const email = loginEmail(body.identifier, app.config.emailDomain);
    // Counted before the password is checked: concurrent guesses cannot all reach verifyPassword (429 past the limit).
    await app.signInThrottle.begin(email, ip);

    const account = await Account.query().findOne({ email });
    const passwordOk = await verifyPassword(body.password, account?.passwordHash);
    if (!account || !passwordOk) {
      log.info({ accountFound: Boolean(account) }, 'sign-in failed');
      throw InvalidCredentials();
    }
    if (account.isBanned()) throw Forbidden('account_banned', 'This account is banned.');
    await app.signInThrottle.succeeded(email, ip);

    // Expired sessions are swept here, where an account's sessions are touched anyway.
    await Session.query().delete().where('account_id', account.id).where('expires_at', '<=', new Date());
    const memberships = await membershipsOf(account.id);
    // The new session's active organization is the account's first membership (spec §2.2).
    const { session, cookie } = await openSession(
      { ip, userAgent: call.header('user-agent') },
      account,
      memberships[0]?.organizationId ?? null,
      app.config.sessionTtlSeconds,
    );
    return withCookies(json(200, presentPrincipal(sessionAuth(account, session, memberships), memberships)), cookie);
  },

  async signOut(call) {
    const tokenHash = sessionTokenHash(call);
    if (tokenHash) await Session.query().delete().where('token_hash', tokenHash);
    return withCookies(noContent(), clearedSessionCookie());
  },

  async getCurrentPrincipal({ auth }) {
    const memberships = auth.identity.accountId ? await membershipsOf(auth.identity.accountId) : [];
    return json(200, presentPrincipal(auth, memberships));
  },

  async setActiveOrganization({ auth, body }) {
    const accountId = auth.identity.accountId!;
    const member = await OrganizationMember.query().findOne({ organization_id: body.organizationId, account_id: accountId });
    if (!member) throw Forbidden('not_a_member', 'You are not a member of that organization.');
    const session = await Session.query().patchAndFetchById(auth.identity.sessionId!, {
      activeOrganizationId: body.organizationId,
    });
    const [account, memberships] = await Promise.all([Account.query().findById(accountId), membershipsOf(accountId)]);
    return json(200, presentPrincipal(sessionAuth(account!, session, memberships), memberships));
  },
} satisfies Partial<OperationHandlers>;
