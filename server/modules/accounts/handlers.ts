import { UniqueViolationError } from 'objection';
import { hashPassword } from '../../auth/secrets.ts';
import { json, noContent, type OperationHandlers } from '../../http/handler.ts';
import { Conflict, NotFound, ValidationFailed, type FieldError } from '../../http/problem.ts';
import { removeMembership } from './commands/removeMembership.ts';
import { Account, Organization, OrganizationMember } from './models.ts';
import { presentAccount, presentMembership, presentOrganization } from './presenters.ts';
import { ensureMembership, findAccountOrFail, loginEmail, membershipsOf } from './service.ts';
import { revokeSessions } from '../auth/sessions.ts';

// Objection wraps driver errors: the SQLSTATE is on `nativeError`, not on the thrown error.
const isUniqueViolation = (err: unknown) => err instanceof UniqueViolationError || (err as { code?: string })?.code === '23505';

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
    // scrypt takes tens of milliseconds: done before the transaction, which then holds its connection (and,
    // on PGlite, the only one) for the writes alone.
    const passwordHash = body.password !== undefined ? await hashPassword(body.password) : undefined;
    const updated = await app.db.knex.transaction(async (trx) => {
      const account = await findAccountOrFail(params.userId, trx);
      const banning = body.banned ?? account.isBanned();
      const errors: FieldError[] = [];
      for (const field of ['banReason', 'banExpiresAt'] as const) {
        if (body[field] !== undefined && body[field] !== null && !banning) {
          errors.push({ path: `body/${field}`, message: 'only with banned: true', code: 'dependentRequired' });
        }
      }
      if (body.banExpiresAt && new Date(body.banExpiresAt) <= new Date()) {
        errors.push({ path: 'body/banExpiresAt', message: 'must be in the future', code: 'minimum' });
      }
      if (errors.length) throw ValidationFailed(errors);

      const patch: Partial<Account> = {};
      if (body.email !== undefined) patch.email = loginEmail(body.email, app.config.emailDomain);
      if (body.name !== undefined) patch.name = body.name;
      if (body.role !== undefined) patch.role = body.role;
      if (passwordHash !== undefined) patch.passwordHash = passwordHash;
      if (body.banned === false) Object.assign(patch, { banned: false, banReason: null, banExpiresAt: null });
      if (banning && (body.banned === true || body.banReason !== undefined || body.banExpiresAt !== undefined)) {
        patch.banned = true;
        // A new ban (none in force) starts clean: an expired ban's reason and expiry must not carry over.
        const fresh = !account.isBanned();
        if (body.banReason !== undefined || fresh) patch.banReason = body.banReason ?? null;
        if (body.banExpiresAt !== undefined || fresh) patch.banExpiresAt = body.banExpiresAt ? new Date(body.banExpiresAt) : null;
      }
      try {
        const row = await Account.query(trx).patchAndFetchById(account.id, patch);
        // A ban or a new password ends every open session of the account.
        if (body.banned === true || body.password !== undefined) await revokeSessions(account.id, trx);
        return row;
      } catch (err) {
        if (isUniqueViolation(err)) throw Conflict('email_taken', `An account with ${patch.email} exists.`);
        throw err;
      }
    });
    // A role change or a ban decides whether the account's API keys still work: forgotten once committed.
    app.credentials.invalidate();
    return json(200, presentAccount(updated));
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

  async deleteOrganizationMember({ params, app }) {
    await removeMembership(app.db.knex, params.membershipId);
    return noContent();
  },

  async listOrganizationMembers({ query }) {
    const rows = OrganizationMember.query()
      .withGraphJoined('[organization, account]')
      .orderBy([{ column: 'organization_members.created_at' }, { column: 'organization_members.id' }]);
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
