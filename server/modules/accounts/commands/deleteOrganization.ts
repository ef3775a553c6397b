import type { AppContext } from '../../../platform/context.ts';
import { Conflict, NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Organization, OrganizationMember } from '../models.ts';

/**
 * Refused for the canonical organization and for one that still has members (both 409): deleting never takes an
 * account's dashboard access away as a side effect. Sessions pointing at it lose their active organization
 * (the foreign key sets it to null).
 */
export async function deleteOrganization(app: Pick<AppContext, 'db' | 'logger'>, organizationId: string): Promise<void> {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const organization = await Organization.query(trx).findById(organizationId).forUpdate();
    if (!organization) throw NotFound('No organization with this id.');
    if (organization.canonical) {
      throw Conflict('canonical_organization', `${organization.name} is the canonical organization; it cannot be deleted.`);
    }
    const members = await OrganizationMember.query(trx).where('organization_id', organization.id).resultSize();
    if (members > 0) {
      throw Conflict(
        'organization_has_members',
        `${organization.name} has ${members} member${members === 1 ? '' : 's'}; remove ${members === 1 ? 'that membership' : 'those memberships'} first.`,
      );
    }
    await Organization.query(trx).deleteById(organization.id);
  });
}
