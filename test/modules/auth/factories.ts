import type { MemberRole } from '../../../server/platform/auth/roles.ts';
import { randomToken, sha256Hex } from '../../../server/platform/auth/secrets.ts';
import type { Account } from '../../../server/modules/accounts/models.ts';
import { Session } from '../../../server/modules/auth/models.ts';
import { buildAccount, buildMembership, nextTimestamp } from '../accounts/factories.ts';

/**
 * The auth module's rows (sessions), with sensible defaults and missing parents created through the accounts
 * module's factories. Each row type of the suite is built in exactly one factories module:
 * `test/modules/<tag>/factories.ts` of the module that owns its table (see test/README.md).
 */

const stamps = () => {
  const at = nextTimestamp();
  return { createdAt: at, updatedAt: at };
};

/** A session row; returns the cookie token. `activeOrganizationId: null` → a session with no active organization. */
export async function buildSession(account: Account, activeOrganizationId: string | null, overrides: Partial<{ expiresAt: Date }> = {}) {
  const token = randomToken(32);
  await Session.query().insert({
    ...stamps(),
    tokenHash: sha256Hex(token),
    accountId: account.id,
    activeOrganizationId,
    expiresAt: overrides.expiresAt ?? new Date(Date.now() + 3600_000),
  });
  return token;
}

/** An account with a membership in the canonical organization and a session there; returns the cookie token. */
export async function buildMemberSession(role: MemberRole, accountOverrides: Parameters<typeof buildAccount>[0] = {}) {
  const account = await buildAccount(accountOverrides);
  const member = await buildMembership(account, role);
  const token = await buildSession(account, member.organizationId);
  return { account, token };
}
