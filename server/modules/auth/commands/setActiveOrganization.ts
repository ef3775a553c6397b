import type { AppContext } from '../../../platform/context.ts';
import { Forbidden } from '../../../platform/http/problem.ts';
import type { AuthContext } from '../../../platform/http/state.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Account, membershipsOf, OrganizationMember } from '../../accounts/index.ts';
import { Session } from '../models.ts';
import { sessionAuth } from '../sessions.ts';

/**
 * Makes `organizationId` the session's active organization (403 `not_a_member` unless the account belongs to it);
 * answers the principal the session now resolves to, with the account's memberships.
 */
export async function setActiveOrganization(
  app: Pick<AppContext, 'db' | 'logger'>,
  identity: { accountId: string; sessionId: string },
  organizationId: string,
): Promise<{ auth: AuthContext; memberships: OrganizationMember[] }> {
  const { accountId } = identity;
  const session = await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const member = await OrganizationMember.query(trx).findOne({ organization_id: organizationId, account_id: accountId });
    if (!member) throw Forbidden('not_a_member', 'You are not a member of that organization.');
    return Session.query(trx).patchAndFetchById(identity.sessionId, { activeOrganizationId: organizationId });
  });
  const [account, memberships] = await Promise.all([Account.query().findById(accountId), membershipsOf(accountId)]);
  return { auth: sessionAuth(account!, session, memberships), memberships };
}
