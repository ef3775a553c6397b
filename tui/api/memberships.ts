import { unwrap, type Schemas, type VenueClient } from '../../sdk/index.ts';

export type Organization = Schemas['Organization'];
export type MemberRole = Schemas['MemberRole'];
export type Membership = Schemas['Membership'];
export type MembershipWithAccount = Schemas['MembershipWithAccount'];
export const MEMBER_ROLES: readonly MemberRole[] = ['member', 'admin', 'owner', 'kitchen_pos'];

/** Canonical organization first. */
export async function listOrganizations(client: VenueClient): Promise<Organization[]> {
  return unwrap(await client.GET('/api/sudo/organizations')).items;
}

/** Every membership, or one organization's members (oldest first). */
export async function listMemberships(client: VenueClient, filter: { organizationId?: string } = {}): Promise<MembershipWithAccount[]> {
  return unwrap(await client.GET('/api/sudo/organization-members', { params: { query: filter.organizationId ? { organizationId: filter.organizationId } : {} } })).items;
}

export interface Attachment {
  /** An e-mail, or a username without `@`. */
  account: string;
  organizationId: string;
  role: MemberRole;
}

/** The idempotent upsert: `outcome` says whether the membership was created, changed or already so. */
export async function attachMember(client: VenueClient, input: Attachment) {
  return unwrap(
    await client.POST('/api/sudo/ensure-organization-member', {
      body: { email: input.account.trim(), organizationId: input.organizationId, role: input.role },
    }),
  );
}

/** Removes one membership; the server refuses (409 `last_canonical_owner`) to remove the canonical organization's last owner. */
export async function removeMembership(client: VenueClient, membershipId: string): Promise<void> {
  unwrap(await client.DELETE('/api/sudo/organization-members/{membershipId}', { params: { path: { membershipId } } }));
}
