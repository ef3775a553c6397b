import { verifyPassword } from '../../../platform/auth/secrets.ts';
import type { AppContext } from '../../../platform/context.ts';
import type { ReplyCookie } from '../../../platform/http/handler.ts';
import { Forbidden, InvalidCredentials } from '../../../platform/http/problem.ts';
import type { AuthContext } from '../../../platform/http/state.ts';
import type { Logger } from '../../../platform/logger.ts';
import { Account, loginEmail, type OrganizationMember } from '../../accounts/index.ts';
import { startSession } from '../startSession.ts';

export interface SignInInput {
  identifier: string;
  password: string;
  ip: string;
  userAgent: string;
  log: Logger;
}

/**
 * Signs in with e-mail (or username) and password: throttled per pair and per address (429 past the limit, counted
 * before the password is checked), 401 for a wrong pair, 403 `account_banned`. Then, in one unit of work, the
 * account's expired sessions are swept and a session opened whose active organization is the account's first
 * membership (spec §2.2).
 */
export async function signIn(app: AppContext, input: SignInInput): Promise<{ auth: AuthContext; memberships: OrganizationMember[]; cookie: ReplyCookie }> {
  const { ip, log } = input;
  const email = loginEmail(input.identifier, app.config.emailDomain);
  // Counted before the password is checked: concurrent guesses cannot all reach verifyPassword (429 past the limit).
  await app.signInThrottle.begin(email, ip);

  const account = await Account.query().findOne({ email });
  const passwordOk = await verifyPassword(input.password, account?.passwordHash);
  if (!account || !passwordOk) {
    log.info({ accountFound: Boolean(account) }, 'sign-in failed');
    throw InvalidCredentials();
  }
  if (account.isBanned()) throw Forbidden('account_banned', 'This account is banned.');
  await app.signInThrottle.succeeded(email, ip);
  return startSession(app, account, { ip, userAgent: input.userAgent });
}
