import type { AppContext } from '../../../platform/context.ts';
import type { MemberRole } from '../../../platform/auth/roles.ts';
import { NotFound, ValidationFailed } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Account, Organization, OrganizationMember } from '../models.ts';
import { insertMembershipIfAbsent, loginEmail } from '../queries.ts';

export type EnsureOutcome = 'created' | 'updated' | 'unchanged';

/**
 * Idempotent upsert of one membership (spec §4.5 ensure-organization-member), in one unit of work. The account is
 * named by id or by e-mail/username; the organization by id, or the canonical one when omitted.
 */
export async function ensureOrganizationMember(
  app: Pick<AppContext, 'db' | 'config' | 'logger'>,
  input: { userId?: string; email?: string; organizationId?: string; role: MemberRole },
): Promise<{ outcome: EnsureOutcome; member: OrganizationMember }> {
  if ((input.userId === undefined) === (input.email === undefined)) {
    throw ValidationFailed([{ path: 'body/userId', message: 'give exactly one of userId and email', code: 'oneOf' }]);
  }
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const account = input.userId
      ? await Account.query(trx).findById(input.userId)
      : await Account.query(trx).findOne({ email: loginEmail(input.email!, app.config.emailDomain) });
    if (!account) throw NotFound('No account matches userId/email.');
    const organization = input.organizationId
      ? await Organization.query(trx).findById(input.organizationId)
      : await Organization.query(trx).findOne({ canonical: true });
    if (!organization) throw NotFound('No such organization.');

    const inserted = await insertMembershipIfAbsent(trx, { organizationId: organization.id, accountId: account.id, role: input.role });
    let outcome: EnsureOutcome = 'created';
    if (inserted === undefined) {
      const changed = await OrganizationMember.query(trx)
        .patch({ role: input.role })
        .where({ organization_id: organization.id, account_id: account.id })
        .whereNot('role', input.role);
      outcome = changed > 0 ? 'updated' : 'unchanged';
    }
    const member = await OrganizationMember.query(trx)
      .findOne({ 'organization_members.organization_id': organization.id, 'organization_members.account_id': account.id })
      .withGraphJoined('organization');
    return { outcome, member: member! };
  });
}
