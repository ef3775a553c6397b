import { hashPassword } from '../../platform/auth/secrets.ts';
import { json, noContent, type OperationHandlers } from '../../platform/http/handler.ts';
import { Conflict, NotFound, ValidationFailed } from '../../platform/http/problem.ts';
import { removeMembership } from './commands/removeMembership.ts';
import { updateAccount } from './commands/updateAccount.ts';
import { Account, Organization, OrganizationMember } from './models.ts';
import { presentAccount, presentMembership, presentOrganization } from './presenters.ts';
import { ensureMembership, findAccountOrFail, isUniqueViolation, loginEmail, membershipsOf } from './service.ts';


/** Dashboard account, organization and membership administration (spec §4.5), superuser only. */
export const handlers = {
  async listUsers({ query }) {
    // The validator fills limit and offset from the contract's defaults.
    const { limit, offset } = query as Required<typeof query>;
    const base = Account.query();
    if (query.q) {
      const pattern = `%${String(query.q).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      base.where((w) => w.whereILike('email', pattern).orWhereILike('name', pattern));
    }
    const [items, total] = await Promise.all([
      base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }]).limit(limit).offset(offset),
      base.clone().resultSize(),
    ]);
    return json(200, { items: items.map(presentAccount), total, limit, offset });
  },

  async createUser({ body, app }) {
    if ((body.email === undefined) === (body.username === undefined)) {
      throw ValidationFailed([{ path: 'body/email', message: 'give exactly one of email and username', code: 'oneOf' }]);
    }
    const email = loginEmail((body.email ?? body.username)!, app.config.emailDomain);
    const passwordHash = await hashPassword(body.password); // before the insert: no connection held meanwhile
    try {
      const account = await Account.query().insertAndFetch({
        email,
        name: body.name,
        passwordHash,
        role: body.role ?? 'USER',
        banned: false,
      });
      return json(201, presentAccount(account));
    } catch (err) {
      if (isUniqueViolation(err)) throw Conflict('email_taken', `An account with ${email} exists.`);
      throw err;
    }
  },

  async getUser({ params }) {
    const account = await findAccountOrFail(params.userId);
    const memberships = await membershipsOf(account.id);
    return json(200, { ...presentAccount(account), memberships: memberships.map(presentMembership) });
  },

  async updateUser({ params, body, app }) {
    return json(200, presentAccount(await updateAccount(app, params.userId, body)));
  },

  async deleteUser({ params, auth, app }) {
    if (auth.identity.accountId === params.userId) {
      throw Conflict('cannot_delete_self', 'You cannot delete the account you are signed in with.');
    }
    const account = await findAccountOrFail(params.userId);
    await Account.query().deleteById(account.id);
    app.credentials.invalidate();
    return noContent();
  },

  async listOrganizations() {
    const organizations = await Organization.query().orderBy([{ column: 'canonical', order: 'desc' }, { column: 'name' }]);
    return json(200, { items: organizations.map(presentOrganization) });
  },

  async createOrganization({ body }) {
    try {
      const organization = await Organization.query().insertAndFetch({ name: body.name.trim(), slug: body.slug, canonical: false });
      return json(201, presentOrganization(organization));
    } catch (err) {
      if (isUniqueViolation(err)) throw Conflict('slug_taken', `An organization with the slug ${body.slug} exists.`);
      throw err;
    }
  },

  async updateOrganization({ params, body }) {
    const patch: Partial<Organization> = {};
    if (body.name !== undefined) patch.name = body.name.trim();
    if (body.slug !== undefined) patch.slug = body.slug;
    try {
      // `canonical` is never patched: renaming the canonical organization keeps it canonical.
      const updated = await Organization.query().patchAndFetchById(params.organizationId, patch);
      if (!updated) throw NotFound('No organization with this id.');
      return json(200, presentOrganization(updated));
    } catch (err) {
      if (isUniqueViolation(err)) throw Conflict('slug_taken', `An organization with the slug ${body.slug} exists.`);
      throw err;
    }
  },

  /**
   * Refused for the canonical organization and for one that still has members (both 409): deleting never takes an
   * account's dashboard access away as a side effect. Sessions pointing at it lose their active organization
   * (the foreign key sets it to null).
   */
  async deleteOrganization({ params, app }) {
    await app.db.knex.transaction(async (trx) => {
      const organization = await Organization.query(trx).findById(params.organizationId).forUpdate();
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
    return noContent();
  },

  async deleteOrganizationMember({ params, app }) {
    await removeMembership(app.db.knex, params.membershipId);
    return noContent();
  },

  async listOrganizationMembers({ query }) {
    const rows = OrganizationMember.query()
      .withGraphJoined('[organization, account]')
      .orderBy([{ column: 'organization_members.created_at' }, { column: 'organization_members.seq' }]);
    if (query.organizationId) rows.where('organization_members.organization_id', query.organizationId);
    if (query.userId) rows.where('organization_members.account_id', query.userId);
    const members = await rows;
    return json(200, {
      items: members.map((m) => ({ ...presentMembership(m), accountEmail: m.account!.email, accountName: m.account!.name })),
    });
  },

  async ensureOrganizationMember({ body, app }) {
    const { outcome, member } = await ensureMembership(app.db.knex, body, app.config.emailDomain);
    return json(200, { outcome, membership: presentMembership(member) });
  },
} satisfies Partial<OperationHandlers>;
