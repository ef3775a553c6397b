import type { AuthContext } from '../../platform/http/state.ts';
import type { Account, Organization, OrganizationMember } from './models.ts';
import type { Schema } from '../../platform/http/handler.ts';
import { iso } from '../presenting.ts';

export function presentAccount(account: Account): Schema<'Account'> {
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    role: account.role,
    banned: account.isBanned(),
    banReason: account.banReason,
    banExpiresAt: iso(account.banExpiresAt),
    createdAt: iso(account.createdAt)!,
    updatedAt: iso(account.updatedAt)!,
  };
}

export function presentOrganization(organization: Organization): Schema<'Organization'> {
  return { id: organization.id, name: organization.name, slug: organization.slug, canonical: organization.canonical };
}

export function presentMembership(member: OrganizationMember): Schema<'Membership'> {
  return {
    id: member.id,
    organization: presentOrganization(member.organization!),
    accountId: member.accountId,
    role: member.role,
    createdAt: iso(member.createdAt)!,
    updatedAt: iso(member.updatedAt)!,
  };
}

/** A page of accounts. */
export function presentAccountPage(page: { items: Account[]; total: number }, limit: number, offset: number): Schema<'AccountPage'> {
  return { items: page.items.map(presentAccount), total: page.total, limit, offset };
}

/** One account with its memberships. */
export function presentAccountDetail(account: Account, memberships: OrganizationMember[]): Schema<'AccountDetail'> {
  return { ...presentAccount(account), memberships: memberships.map(presentMembership) };
}

/** A membership with its account's e-mail and name (the members list; `account` loaded). */
export function presentMembershipWithAccount(member: OrganizationMember): Schema<'MembershipWithAccount'> {
  return { ...presentMembership(member), accountEmail: member.account!.email, accountName: member.account!.name };
}

/** GET /api/auth/me (spec §4.6): the resolved principal, never the account role as the request role. */
export function presentPrincipal(auth: AuthContext, memberships: OrganizationMember[]): Schema<'Principal'> {
  const { identity } = auth;
  const active = memberships.find((m) => m.organizationId === identity.activeOrganizationId);
  return {
    role: auth.role,
    authSource: auth.authSource,
    permissions: auth.permissions,
    account: identity.accountId
      ? { id: identity.accountId, email: identity.email!, name: identity.name!, role: identity.accountRole! }
      : null,
    session: identity.sessionId ? { id: identity.sessionId, expiresAt: iso(identity.sessionExpiresAt)! } : null,
    apiKey: identity.apiKeyId
      ? { id: identity.apiKeyId, name: identity.apiKeyName!, start: identity.apiKeyStart!, expiresAt: iso(identity.apiKeyExpiresAt) }
      : null,
    activeOrganization:
      auth.authSource === 'session' && active
        ? { id: active.organization!.id, name: active.organization!.name, slug: active.organization!.slug, memberRole: active.role }
        : null,
    memberships: memberships.map(presentMembership),
  };
}
