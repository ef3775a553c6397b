import type { Knex } from 'knex';
import { Account, Organization, OrganizationMember } from './models.ts';
import type { MemberRole } from '../../platform/auth/roles.ts';
import { Conflict, NotFound } from '../../platform/http/problem.ts';

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
  const owners = await lockCanonicalOwners(trx, organization.id);
  if (owners.length <= 1) {
    throw Conflict('last_canonical_owner', `This is the last owner of ${organization.name}, the canonical organization; make another account owner first.`);
  }
}

/** Locks the canonical organization's owner memberships (their ids), so two removals of its last two owners serialize. */
export async function lockCanonicalOwners(trx: Knex.Transaction, organizationId: string): Promise<Array<{ id: string }>> {
  return trx('organization_members').where({ organization_id: organizationId, role: 'owner' }).forUpdate().select('id');
}

/** Inserts a membership unless the account already has one in the organization (`on conflict do nothing`); its id, or undefined. */
export async function insertMembershipIfAbsent(trx: Knex.Transaction, member: { organizationId: string; accountId: string; role: MemberRole }): Promise<string | undefined> {
  const inserted = await trx('organization_members')
    .insert({ organization_id: member.organizationId, account_id: member.accountId, role: member.role })
    .onConflict(['organization_id', 'account_id'])
    .ignore()
    .returning('id');
  return (inserted[0] as { id: string } | undefined)?.id;
}

/** Accounts, newest first, matching `q` (e-mail or name, case-insensitive), with the total for paging. */
export async function listAccounts(query: { q?: string; limit: number; offset: number }): Promise<{ items: Account[]; total: number }> {
  const base = Account.query();
  if (query.q) {
    const pattern = `%${String(query.q).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base.where((w) => w.whereILike('email', pattern).orWhereILike('name', pattern));
  }
  const [items, total] = await Promise.all([
    base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }]).limit(query.limit).offset(query.offset),
    base.clone().resultSize(),
  ]);
  return { items, total };
}

/** Organizations, the canonical one first, then by name. */
export async function listOrganizations(): Promise<Organization[]> {
  return Organization.query().orderBy([{ column: 'canonical', order: 'desc' }, { column: 'name' }]);
}

/** Memberships with their organization and account, oldest first, optionally of one organization or one account. */
export async function listMembers(filters: { organizationId?: string; userId?: string }): Promise<OrganizationMember[]> {
  const rows = OrganizationMember.query()
    .withGraphJoined('[organization, account]')
    .orderBy([{ column: 'organization_members.created_at' }, { column: 'organization_members.seq' }]);
  if (filters.organizationId) rows.where('organization_members.organization_id', filters.organizationId);
  if (filters.userId) rows.where('organization_members.account_id', filters.userId);
  return rows;
}

/**
 * The e-mail addresses of the venue's administrators: every account with an `owner` or `admin` membership whose ban is
 * not in force, each once (whom the webhooks module tells of an endpoint it disabled, issue 36 §3).
 */
export async function administratorAddresses(trx: Knex.Transaction, now: Date): Promise<string[]> {
  const rows = await Account.query(trx)
    .distinct('accounts.email')
    .join('organization_members as m', 'm.account_id', 'accounts.id')
    .whereIn('m.role', ['owner', 'admin'])
    .where((q) => q.where('accounts.banned', false).orWhere((expired) => expired.whereNotNull('accounts.ban_expires_at').where('accounts.ban_expires_at', '<=', now)))
    .orderBy('accounts.email');
  return rows.map((row) => row.email);
}
