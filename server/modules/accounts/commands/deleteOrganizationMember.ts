import type { AppContext } from '../../../platform/context.ts';
import { NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { OrganizationMember } from '../models.ts';
import { assertKeepsCanonicalOwner } from '../queries.ts';

/**
 * Removes one membership, in its own transaction: 404 when absent, 409 `last_canonical_owner` when it is the
 * canonical organization's last owner. Sessions whose active organization it was resolve to `public` from their
 * next request (identity joins the membership on every request; nothing is cached).
 */
export async function deleteOrganizationMember(app: Pick<AppContext, 'db' | 'logger'>, membershipId: string): Promise<void> {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const member = await OrganizationMember.query(trx).findById(membershipId).forUpdate();
    if (!member) throw NotFound('No membership with this id.');
    await assertKeepsCanonicalOwner(trx, member);
    await OrganizationMember.query(trx).deleteById(member.id);
  });
}
