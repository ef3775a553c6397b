import { expect } from 'chai';
import { countRows, me, sudo } from '../../helpers/accounts.ts';
import { buildAccount, buildApiKey, buildMemberSession, buildMembership, buildOrganization, buildSession, canonicalOrganization, permissionMap } from '../../helpers/factories.ts';
import { cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe('accounts: DELETE /api/sudo/organizations/{organizationId}', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const remove = (id: string) => sudo(server, 'DELETE', `/api/sudo/organizations/${id}`);

  it('deletes an organization without members (204, then 404), and it leaves the list', async () => {
    const organization = await buildOrganization({ name: 'Pop-up Stage' });
    const res = await remove(organization.id);
    expect(res.status).to.equal(204);
    expect(await countRows(server.db.knex, 'organizations', { id: organization.id })).to.equal(0);
    const list = await sudo(server, 'GET', '/api/sudo/organizations');
    expect(list.body.items.map((o: { id: string }) => o.id)).not.to.include(organization.id);
    const again = await remove(organization.id);
    expect(again.status).to.equal(404);
    expect(again.body.code).to.equal('not_found');
  });

  it('leaves a session whose active organization it was without one (it resolves to public)', async () => {
    const organization = await buildOrganization();
    const account = await buildAccount();
    const token = await buildSession(account, organization.id);
    expect((await remove(organization.id)).status).to.equal(204);
    const [session] = await server.db.knex('sessions').where({ account_id: account.id });
    expect(session.active_organization_id).to.equal(null);
    expect((await me(server, token)).status).to.equal(401);
  });

  it('refuses the canonical organization with 409 canonical_organization, and keeps it', async () => {
    const canonical = await canonicalOrganization();
    const res = await remove(canonical.id);
    expect(res.status).to.equal(409);
    expect(res.body.code).to.equal('canonical_organization');
    expect(res.body.detail).to.contain('canonical');
    expect(await countRows(server.db.knex, 'organizations', { id: canonical.id })).to.equal(1);
  });

  it('refuses an organization that has members with 409 organization_has_members, saying how many, and removes nothing', async () => {
    const organization = await buildOrganization({ name: 'Busy Stage' });
    await buildMembership(await buildAccount(), 'owner', organization);
    await buildMembership(await buildAccount(), 'member', organization);
    const res = await remove(organization.id);
    expect(res.status).to.equal(409);
    expect(res.body.code).to.equal('organization_has_members');
    expect(res.body.detail).to.equal('Busy Stage has 2 members; remove those memberships first.');
    expect(await countRows(server.db.knex, 'organizations', { id: organization.id })).to.equal(1);
    expect(await countRows(server.db.knex, 'organization_members', { organization_id: organization.id })).to.equal(2);

    // Once its memberships are gone, it can be deleted.
    await server.db.knex('organization_members').where({ organization_id: organization.id }).delete();
    expect((await remove(organization.id)).status).to.equal(204);
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    const malformed = await remove('not-a-uuid');
    expect(malformed.status).to.equal(400);
    expect(malformed.body.errors.map((e: { path: string }) => e.path)).to.include('path/organizationId');
    expect((await remove(MISSING_ID)).status).to.equal(404);
  });

  it('is refused to a caller without credentials (401), an admin member session (403) and an API key (403)', async () => {
    const organization = await buildOrganization();
    expect((await server.request('DELETE', `/api/sudo/organizations/${organization.id}`)).status).to.equal(401);
    const { token } = await buildMemberSession('admin');
    const asAdmin = await server.request('DELETE', `/api/sudo/organizations/${organization.id}`, { headers: cookieHeader(token) });
    expect(asAdmin.status).to.equal(403);
    const { key } = await buildApiKey({ permissions: permissionMap('organizations:delete') });
    const asKey = await server.request('DELETE', `/api/sudo/organizations/${organization.id}`, { headers: { 'x-api-key': key } });
    expect(asKey.status).to.equal(403);
    expect(asKey.body.code).to.equal('api_key_not_allowed');
    expect(await countRows(server.db.knex, 'organizations', { id: organization.id })).to.equal(1);
  });
});
