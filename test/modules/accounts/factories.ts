import { randomUUID } from 'node:crypto';
import type { AccountRole, MemberRole } from '../../../server/platform/auth/roles.ts';
import { hashPassword } from '../../../server/platform/auth/secrets.ts';
import { Account, Organization, OrganizationMember } from '../../../server/modules/accounts/models.ts';

/**
 * The accounts module's rows (accounts, organizations, memberships), with sensible defaults and missing
 * parents created (Outline's `build<Model>`). Each row type of the suite is built in exactly one factories module:
 * `test/modules/<tag>/factories.ts` of the module that owns its table (see test/README.md).
 */

const passwordHashes = new Map<string, string>();
async function cachedHash(password: string): Promise<string> {
  if (!passwordHashes.has(password)) passwordHashes.set(password, await hashPassword(password));
  return passwordHashes.get(password)!;
}

export const DEFAULT_PASSWORD = 'correct horse battery';

let lastStamp = 0;
/**
 * A creation time later than every one this module handed out before (the wall clock, or 1 ms past the last):
 * rows built one after another never tie on `created_at`, so "the first" of them is the one built first, as
 * the spec reads it, not a coin toss between random ids.
 */
export function nextTimestamp(): Date {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp);
}
const stamps = () => {
  const at = nextTimestamp();
  return { createdAt: at, updatedAt: at };
};

export async function buildAccount(overrides: Partial<{ email: string; name: string; role: AccountRole; password: string; banned: boolean; banExpiresAt: Date | null }> = {}) {
  const suffix = randomUUID().slice(0, 8);
  return Account.query().insertAndFetch({
    ...stamps(),
    email: overrides.email ?? `user-${suffix}@example.test`,
    name: overrides.name ?? `User ${suffix}`,
    role: overrides.role ?? 'USER',
    passwordHash: await cachedHash(overrides.password ?? DEFAULT_PASSWORD),
    banned: overrides.banned ?? false,
    banExpiresAt: overrides.banExpiresAt ?? null,
  });
}

export async function canonicalOrganization(): Promise<Organization> {
  return (await Organization.query().findOne({ canonical: true }))!;
}

export async function buildOrganization(overrides: Partial<{ name: string; slug: string }> = {}) {
  const suffix = randomUUID().slice(0, 8);
  return Organization.query().insertAndFetch({ ...stamps(), name: overrides.name ?? `Org ${suffix}`, slug: overrides.slug ?? `org-${suffix}`, canonical: false });
}

export async function buildMembership(account: Account, role: MemberRole, organization?: Organization) {
  const org = organization ?? (await canonicalOrganization());
  return OrganizationMember.query().insertAndFetch({ ...stamps(), accountId: account.id, organizationId: org.id, role });
}
