import type { AppContext } from '../../platform/context.ts';
import type { ReplyCookie } from '../../platform/http/handler.ts';
import type { AuthContext } from '../../platform/http/state.ts';
import { inUnitOfWork } from '../../platform/unitOfWork.ts';
import { membershipsOf, type Account, type OrganizationMember } from '../accounts/index.ts';
import { Session } from './models.ts';
import { openSession, sessionAuth } from './sessions.ts';

/**
 * Opens a dashboard session for an account whose credential was just verified (a password here, a passkey in the
 * passkeys module): in one unit of work the account's expired sessions are swept and a session opened whose active
 * organization is the account's first membership (spec §2.2). Returns the principal and the session cookie.
 */
export async function startSession(
  app: AppContext,
  account: Account,
  client: { ip: string; userAgent: string },
): Promise<{ auth: AuthContext; memberships: OrganizationMember[]; cookie: ReplyCookie }> {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    // Expired sessions are swept here, where an account's sessions are touched anyway.
    await Session.query(trx).delete().where('account_id', account.id).where('expires_at', '<=', new Date());
    const memberships = await membershipsOf(account.id, trx);
    const { session, cookie } = await openSession(client, account, memberships[0]?.organizationId ?? null, app.config.sessionTtlSeconds, trx, app.config.sessionCookie);
    return { auth: sessionAuth(account, session, memberships), memberships, cookie };
  });
}
