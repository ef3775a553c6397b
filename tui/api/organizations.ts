import { unwrap, type VenueClient } from '../../sdk/index.ts';
import type { Organization } from './memberships.ts';

export { listOrganizations, type Organization } from './memberships.ts';

/** `Second Stage!` → `second-stage`: what the slug field proposes when left blank. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
}

export interface OrganizationInput {
  name: string;
  /** Blank: made from the name. */
  slug: string;
}

export async function createOrganization(client: VenueClient, input: OrganizationInput): Promise<Organization> {
  const name = input.name.trim();
  const slug = input.slug.trim() || slugify(name);
  return unwrap(await client.POST('/api/sudo/organizations', { body: { name, slug } }));
}

/** Sends only what changed (the server refuses an empty change). */
export async function renameOrganization(client: VenueClient, organization: Organization, input: OrganizationInput): Promise<Organization> {
  const body: { name?: string; slug?: string } = {};
  const name = input.name.trim();
  const slug = input.slug.trim();
  if (name !== organization.name) body.name = name;
  if (slug && slug !== organization.slug) body.slug = slug;
  if (!body.name && !body.slug) return organization;
  return unwrap(await client.PATCH('/api/sudo/organizations/{organizationId}', { params: { path: { organizationId: organization.id } }, body }));
}

/**
 * Deletes an organization. The server refuses the canonical one (409 `canonical_organization`) and one that still
 * has members (409 `organization_has_members`): remove its memberships first.
 */
export async function deleteOrganization(client: VenueClient, organizationId: string): Promise<void> {
  unwrap(await client.DELETE('/api/sudo/organizations/{organizationId}', { params: { path: { organizationId } } }));
}
