import { staffActor } from '../../domain/actors.ts';
import { json, noContent, type OperationHandlers } from '../../platform/http/handler.ts';
import { createOrganization } from './commands/createOrganization.ts';
import { createUser } from './commands/createUser.ts';
import { deleteOrganization } from './commands/deleteOrganization.ts';
import { deleteOrganizationMember } from './commands/deleteOrganizationMember.ts';
import { deleteUser } from './commands/deleteUser.ts';
import { ensureOrganizationMember } from './commands/ensureOrganizationMember.ts';
import { updateOrganization } from './commands/updateOrganization.ts';
import { updateUser } from './commands/updateUser.ts';
import { presentAccount, presentAccountDetail, presentAccountPage, presentMembership, presentMembershipWithAccount, presentOrganization } from './presenters.ts';
import { findAccountOrFail, listAccounts, listMembers, listOrganizations, membershipsOf } from './queries.ts';

/** Dashboard account, organization and membership administration (spec §4.5), superuser only. */
export const handlers = {
  async listUsers({ query }) {
    // The validator fills limit and offset from the contract's defaults.
    const { limit, offset } = query as Required<typeof query>;
    return json(200, presentAccountPage(await listAccounts({ q: query.q, limit, offset }), limit, offset));
  },

  async createUser({ body, app }) {
    return json(201, presentAccount(await createUser(app, body)));
  },

  async getUser({ params }) {
    const account = await findAccountOrFail(params.userId);
    return json(200, presentAccountDetail(account, await membershipsOf(account.id)));
  },

  async updateUser({ params, body, app, auth }) {
    return json(200, presentAccount(await updateUser(app, staffActor(auth), params.userId, body)));
  },

  async deleteUser({ params, auth, app }) {
    await deleteUser(app, params.userId, auth.identity.accountId);
    return noContent();
  },

  async listOrganizations() {
    return json(200, { items: (await listOrganizations()).map(presentOrganization) });
  },

  async createOrganization({ body, app }) {
    return json(201, presentOrganization(await createOrganization(app, body)));
  },

  async updateOrganization({ params, body, app }) {
    return json(200, presentOrganization(await updateOrganization(app, params.organizationId, body)));
  },

  async deleteOrganization({ params, app }) {
    await deleteOrganization(app, params.organizationId);
    return noContent();
  },

  async deleteOrganizationMember({ params, app }) {
    await deleteOrganizationMember(app, params.membershipId);
    return noContent();
  },

  async listOrganizationMembers({ query }) {
    const members = await listMembers({ organizationId: query.organizationId, userId: query.userId });
    return json(200, { items: members.map(presentMembershipWithAccount) });
  },

  async ensureOrganizationMember({ body, app }) {
    const { outcome, member } = await ensureOrganizationMember(app, body);
    return json(200, { outcome, membership: presentMembership(member) });
  },
} satisfies Partial<OperationHandlers>;
