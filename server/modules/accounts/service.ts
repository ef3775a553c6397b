import { UniqueViolationError } from 'objection';
import type { Knex } from 'knex';
import { Account, Organization, OrganizationMember } from './models.ts';
import type { MemberRole } from '../../platform/auth/roles.ts';
import { Conflict, NotFound, ValidationFailed } from '../../platform/http/problem.ts';

/** A username without `@` stands for `<username>@<EMAIL_DOMAIN>` (spec §2.2). */
export function loginEmail(identifier: string, emailDomain: string): string {
  const trimmed = identifier.trim().toLowerCase();
  return trimmed.includes('@') ? trimmed : `${trimmed}@${emailDomain}`;
}

export async function membershipsOf(accountId: string, trx?: Knex.Transaction): Promise<OrganizationMember[]> {
  return OrganizationMember.query(trx)
    .where('organization_members.account_id', accountId)
    .withGraphJoined('organization')
    .orderBy([{ column: 'organization_members.created_at' }, { column: 'organization_members.seq' }]);
}

export async function findAccountOrFail(id: string, trx?: Knex.Transaction): Promise<Account> {
  const account = await Account.query(trx).findById(id);
  if (!account) throw NotFound('No account with this id.');
  return account;
}

/**
 * The venue never locks itself out: the canonical organization keeps at least one `owner` (its owners resolve to
 * role `superuser`). Call inside the transaction that removes or demotes `member`, before the write. The
 * canonical organization's owner rows are locked, so two concurrent removals of its last two owners cannot
 * both pass.
 */
export async function assertKeepsCanonicalOwner(trx: Knex.Transaction, member: { organizationId: string; role: MemberRole }): Promise<void> {
  if (member.role !== 'owner') return;
  const organization = await Organization.query(trx).findById(member.organizationId);
  if (!organization?.canonical) return;
  const owners = await trx('organization_members').where({ organization_id: organization.id, role: 'owner' }).forUpdate().select('id');
  if (owners.length <= 1) {
    throw Conflict('last_canonical_owner', `This is the last owner of ${organization.name}, the canonical organization; make another account owner first.`);
  }
}

export type EnsureOutcome = 'created' | 'updated' | 'unchanged';

/**
 * Idempotent upsert of one membership (spec §4.5 ensure-organization-member). The account is named by id or
 * by e-mail/username; the organization by id, or the canonical one when omitted.
 */
export async function ensureMembership(
  knex: Knex,
  input: { userId?: string; email?: string; organizationId?: string; role: MemberRole },
  emailDomain: string,
): Promise<{ outcome: EnsureOutcome; member: OrganizationMember }> {
  if ((input.userId === undefined) === (input.email === undefined)) {
    throw ValidationFailed([{ path: 'body/userId', message: 'give exactly one of userId and email', code: 'oneOf' }]);
  }
  return knex.transaction(async (trx) => {
    const account = input.userId
      ? await Account.query(trx).findById(input.userId)
      : await Account.query(trx).findOne({ email: loginEmail(input.email!, emailDomain) });
    if (!account) throw NotFound('No account matches userId/email.');
    const organization = input.organizationId
      ? await Organization.query(trx).findById(input.organizationId)
      : await Organization.query(trx).findOne({ canonical: true });
    if (!organization) throw NotFound('No such organization.');

    const inserted = await trx('organization_members')
      .insert({ organization_id: organization.id, account_id: account.id, role: input.role })
      .onConflict(['organization_id', 'account_id'])
      .ignore()
      .returning('id');
    let outcome: EnsureOutcome = 'created';
    if (inserted.length === 0) {
      const existing = await OrganizationMember.query(trx).findOne({ organization_id: organization.id, account_id: account.id });
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

// Objection wraps driver errors: the SQLSTATE is on `nativeError`, not on the thrown error.
export const isUniqueViolation = (err: unknown) => err instanceof UniqueViolationError || (err as { code?: string })?.code === '23505';
