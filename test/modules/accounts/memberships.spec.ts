import { expect } from 'chai';
import { countRows, errorPaths, me, sudo } from '../../helpers/accounts.ts';
import { buildAccount, buildMemberSession, buildMembership, buildOrganization, buildSession, canonicalOrganization } from '../../helpers/factories.ts';
import { cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe('accounts: organizations and memberships', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ config: { emailDomain: 'venue.test' } });
  });
  after(() => server.close());

  const ensure = (body: Record<string, unknown>) => sudo(server, 'POST', '/api/sudo/ensure-organization-member', body);

  describe('POST /api/sudo/ensure-organization-member', () => {
    it('creates, then leaves unchanged on repeat, then updates when the role changes', async () => {
      const account = await buildAccount();
      const knex = server.db.knex;
      const before = await countRows(knex, 'organization_members');

      const created = await ensure({ userId: account.id, role: 'member' });
      expect(created.status).to.equal(200);
      expect(created.body.outcome).to.equal('created');
      expect(created.body.membership).to.include({ accountId: account.id, role: 'member' });
      expect(created.body.membership.organization.canonical).to.equal(true);
      expect(await countRows(knex, 'organization_members')).to.equal(before + 1);

      const repeated = await ensure({ userId: account.id, role: 'member' });
      expect(repeated.status).to.equal(200);
      expect(repeated.body.outcome).to.equal('unchanged');
      expect(repeated.body.membership.id).to.equal(created.body.membership.id);
      expect(repeated.body.membership.updatedAt).to.equal(created.body.membership.updatedAt);
      expect(await countRows(knex, 'organization_members')).to.equal(before + 1);

      const updated = await ensure({ userId: account.id, role: 'admin' });
      expect(updated.status).to.equal(200);
      expect(updated.body.outcome).to.equal('updated');
      expect(updated.body.membership.id).to.equal(created.body.membership.id);
      expect(updated.body.membership.role).to.equal('admin');
      expect(await countRows(knex, 'organization_members')).to.equal(before + 1);
      const [row] = await knex('organization_members').where('id', created.body.membership.id);
      expect(row.role).to.equal('admin');

      expect((await ensure({ userId: account.id, role: 'admin' })).body.outcome).to.equal('unchanged');
    });

    it('changes the role a live session resolves to', async () => {
      const { account, token } = await buildMemberSession('member');
      expect((await me(server, token)).body.role).to.equal('staff');
      expect((await ensure({ userId: account.id, role: 'admin' })).body.outcome).to.equal('updated');
      expect((await me(server, token)).body.role).to.equal('admin');
    });

    it('names the account by e-mail or by username', async () => {
      const byEmail = await buildAccount({ email: 'member.one@example.test' });
      const res = await ensure({ email: 'Member.One@Example.test', role: 'kitchen_pos' });
      expect(res.status).to.equal(200);
      expect(res.body.outcome).to.equal('created');
      expect(res.body.membership.accountId).to.equal(byEmail.id);

      const byUsername = await buildAccount({ email: 'cashier@venue.test' });
      const viaUsername = await ensure({ email: 'cashier', role: 'member' });
      expect(viaUsername.status).to.equal(200);
      expect(viaUsername.body.membership.accountId).to.equal(byUsername.id);
      expect((await ensure({ email: 'cashier@venue.test', role: 'member' })).body.outcome).to.equal('unchanged');
    });

    it('defaults to the canonical organization and honours organizationId', async () => {
      const canonical = await canonicalOrganization();
      const other = await buildOrganization({ name: 'Second Stage' });
      const account = await buildAccount();
      const inCanonical = await ensure({ userId: account.id, role: 'member' });
      expect(inCanonical.body.membership.organization.id).to.equal(canonical.id);
      const inOther = await ensure({ userId: account.id, organizationId: other.id, role: 'owner' });
      expect(inOther.status).to.equal(200);
      expect(inOther.body.outcome).to.equal('created');
      expect(inOther.body.membership.organization).to.deep.equal({ id: other.id, name: 'Second Stage', slug: other.slug, canonical: false });
      expect(inOther.body.membership.id).not.to.equal(inCanonical.body.membership.id);
      expect(await countRows(server.db.knex, 'organization_members', { account_id: account.id })).to.equal(2);
      // The canonical membership is untouched by the second call.
      const [row] = await server.db.knex('organization_members').where({ account_id: account.id, organization_id: canonical.id });
      expect(row.role).to.equal('member');
    });

    it('answers 404 for an unknown account (by id, e-mail or username) and an unknown organization', async () => {
      const before = await countRows(server.db.knex, 'organization_members');
      for (const body of [{ userId: MISSING_ID }, { email: 'nobody@example.test' }, { email: 'nobody' }]) {
        const res = await ensure({ ...body, role: 'member' });
        expect(res.status, JSON.stringify(body)).to.equal(404);
        expect(res.body.code).to.equal('not_found');
      }
      const account = await buildAccount();
      const org = await ensure({ userId: account.id, organizationId: MISSING_ID, role: 'member' });
      expect(org.status).to.equal(404);
      expect(await countRows(server.db.knex, 'organization_members')).to.equal(before);
    });

    it('requires exactly one of userId and email (400)', async () => {
      const account = await buildAccount();
      const both = await ensure({ userId: account.id, email: account.email, role: 'member' });
      expect(both.status).to.equal(400);
      expect(both.body.code).to.equal('validation_failed');
      const neither = await ensure({ role: 'member' });
      expect(neither.status).to.equal(400);
      expect(neither.body.errors).to.have.length.greaterThan(0);
      expect(await countRows(server.db.knex, 'organization_members', { account_id: account.id })).to.equal(0);
    });

    it('rejects a member role outside the enum and a missing role (400 naming body/role)', async () => {
      const account = await buildAccount();
      for (const body of [{ userId: account.id, role: 'superuser' }, { userId: account.id }]) {
        const res = await ensure(body);
        expect(res.status).to.equal(400);
        expect(errorPaths(res)).to.include('body/role');
      }
    });

    it('is refused to an admin member session', async () => {
      const { account, token } = await buildMemberSession('admin');
      const res = await server.request('POST', '/api/sudo/ensure-organization-member', {
        headers: cookieHeader(token),
        body: { userId: account.id, role: 'owner' },
      });
      expect(res.status).to.equal(403);
      const [row] = await server.db.knex('organization_members').where('account_id', account.id);
      expect(row.role).to.equal('admin');
    });
  });

  describe('GET /api/sudo/organizations', () => {
    it('lists every organization, the canonical one first', async () => {
      const canonical = await canonicalOrganization();
      const a = await buildOrganization({ name: 'Aardvark Hall' });
      const z = await buildOrganization({ name: 'Zebra Room' });
      const res = await sudo(server, 'GET', '/api/sudo/organizations');
      expect(res.status).to.equal(200);
      expect(res.body.items[0]).to.deep.equal({ id: canonical.id, name: canonical.name, slug: canonical.slug, canonical: true });
      const ids = res.body.items.map((o: any) => o.id);
      expect(ids).to.include.members([a.id, z.id]);
      expect(res.body.items.filter((o: any) => o.canonical)).to.have.length(1);
      expect(res.body.items.length).to.equal(await countRows(server.db.knex, 'organizations'));
      expect(ids.indexOf(a.id)).to.be.lessThan(ids.indexOf(z.id));
    });

    it('is refused to a caller without credentials', async () => {
      expect((await server.request('GET', '/api/sudo/organizations')).status).to.equal(401);
    });
  });

  describe('GET /api/sudo/organization-members', () => {
    it('lists memberships with the member e-mail and name, filtered by organization and by account', async () => {
      const org = await buildOrganization();
      const alice = await buildAccount({ name: 'Alice Member' });
      const bob = await buildAccount({ name: 'Bob Member' });
      const inOrgAlice = await buildMembership(alice, 'admin', org);
      const inOrgBob = await buildMembership(bob, 'kitchen_pos', org);
      const canonicalAlice = await buildMembership(alice, 'member');

      const all = await sudo(server, 'GET', '/api/sudo/organization-members');
      expect(all.status).to.equal(200);
      expect(all.body.items.length).to.equal(await countRows(server.db.knex, 'organization_members'));

      const byOrg = await sudo(server, 'GET', `/api/sudo/organization-members?organizationId=${org.id}`);
      expect(byOrg.status).to.equal(200);
      expect(byOrg.body.items.map((m: any) => m.id)).to.deep.equal([inOrgAlice.id, inOrgBob.id]);
      const bobRow = byOrg.body.items.find((m: any) => m.id === inOrgBob.id);
      expect(bobRow).to.include({ accountId: bob.id, role: 'kitchen_pos', accountEmail: bob.email, accountName: 'Bob Member' });
      expect(bobRow.organization.id).to.equal(org.id);

      const byAccount = await sudo(server, 'GET', `/api/sudo/organization-members?userId=${alice.id}`);
      expect(byAccount.body.items.map((m: any) => m.id)).to.have.members([inOrgAlice.id, canonicalAlice.id]);

      const both = await sudo(server, 'GET', `/api/sudo/organization-members?userId=${alice.id}&organizationId=${org.id}`);
      expect(both.body.items.map((m: any) => m.id)).to.deep.equal([inOrgAlice.id]);

      const none = await sudo(server, 'GET', `/api/sudo/organization-members?organizationId=${MISSING_ID}`);
      expect(none.body.items).to.deep.equal([]);
    });

    it('rejects a filter that is not a UUID with 400 naming it', async () => {
      const res = await sudo(server, 'GET', '/api/sudo/organization-members?organizationId=venue');
      expect(res.status).to.equal(400);
      expect(errorPaths(res)).to.include('query/organizationId');
    });

    it('is refused to a session with no active organization (401)', async () => {
      const account = await buildAccount();
      const token = await buildSession(account, null);
      const res = await server.request('GET', '/api/sudo/organization-members', { headers: cookieHeader(token) });
      expect(res.status).to.equal(401);
    });
  });
  describe('POST /api/sudo/organizations', () => {
    it('creates an organization (never canonical) that lists and takes members', async () => {
      const res = await sudo(server, 'POST', '/api/sudo/organizations', { name: '  Rooftop Bar ', slug: 'rooftop-bar' });
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ name: 'Rooftop Bar', slug: 'rooftop-bar', canonical: false });
      const listed = (await sudo(server, 'GET', '/api/sudo/organizations')).body.items;
      expect(listed.map((o: { slug: string }) => o.slug)).to.include('rooftop-bar');
      const account = await buildAccount();
      expect((await ensure({ userId: account.id, organizationId: res.body.id, role: 'member' })).body.outcome).to.equal('created');
    });

    it('refuses a taken slug with 409 slug_taken', async () => {
      await buildOrganization({ slug: 'taken-slug' });
      const res = await sudo(server, 'POST', '/api/sudo/organizations', { name: 'Other', slug: 'taken-slug' });
      expect(res.status).to.equal(409);
      expect(res.body.code).to.equal('slug_taken');
    });

    it('rejects a malformed slug, a blank name and a missing field with 400 naming it', async () => {
      for (const slug of ['Upper', 'two--hyphens', '-edge', 'with space', '']) {
        const res = await sudo(server, 'POST', '/api/sudo/organizations', { name: 'X', slug });
        expect(res.status, slug).to.equal(400);
        expect(errorPaths(res)).to.include('body/slug');
      }
      const blank = await sudo(server, 'POST', '/api/sudo/organizations', { name: '   ', slug: 'blank-name' });
      expect(blank.status).to.equal(400);
      expect(errorPaths(blank)).to.include('body/name');
      expect((await sudo(server, 'POST', '/api/sudo/organizations', { name: 'No slug' })).status).to.equal(400);
    });

    it('is refused to an admin member session (403) and to a caller without credentials (401)', async () => {
      const { token } = await buildMemberSession('admin');
      const body = { name: 'Sneaky', slug: 'sneaky' };
      expect((await server.request('POST', '/api/sudo/organizations', { headers: cookieHeader(token), body })).status).to.equal(403);
      expect((await server.request('POST', '/api/sudo/organizations', { body })).status).to.equal(401);
      expect(await countRows(server.db.knex, 'organizations', { slug: 'sneaky' })).to.equal(0);
    });
  });

  describe('PATCH /api/sudo/organizations/{organizationId}', () => {
    const rename = (id: string, body: Record<string, unknown>) => sudo(server, 'PATCH', `/api/sudo/organizations/${id}`, body);

    it('renames the name, the slug, or both', async () => {
      const organization = await buildOrganization({ name: 'Before', slug: 'before-slug' });
      expect((await rename(organization.id, { name: 'After' })).body).to.include({ name: 'After', slug: 'before-slug' });
      expect((await rename(organization.id, { slug: 'after-slug' })).body).to.include({ name: 'After', slug: 'after-slug' });
      const both = await rename(organization.id, { name: 'Both', slug: 'both-slug' });
      expect(both.status).to.equal(200);
      expect(both.body).to.deep.equal({ id: organization.id, name: 'Both', slug: 'both-slug', canonical: false });
    });

    it('renames the canonical organization, which stays canonical', async () => {
      const canonical = await canonicalOrganization();
      const res = await rename(canonical.id, { name: 'The Venue', slug: 'the-venue' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id: canonical.id, name: 'The Venue', slug: 'the-venue', canonical: true });
      expect((await sudo(server, 'GET', '/api/sudo/organizations')).body.items[0]).to.include({ id: canonical.id, canonical: true });
      await rename(canonical.id, { name: canonical.name, slug: canonical.slug });
    });

    it('refuses a slug another organization holds with 409, and changes nothing', async () => {
      await buildOrganization({ slug: 'held-slug' });
      const organization = await buildOrganization({ name: 'Mine', slug: 'mine-slug' });
      const res = await rename(organization.id, { name: 'Renamed', slug: 'held-slug' });
      expect(res.status).to.equal(409);
      expect(res.body.code).to.equal('slug_taken');
      const [row] = await server.db.knex('organizations').where('id', organization.id);
      expect(row).to.include({ name: 'Mine', slug: 'mine-slug' });
    });

    it('answers 404 for an unknown organization, 400 for an empty body, a bad slug or a malformed id', async () => {
      expect((await rename(MISSING_ID, { name: 'Ghost' })).status).to.equal(404);
      const organization = await buildOrganization();
      expect((await rename(organization.id, {})).status).to.equal(400);
      expect(errorPaths(await rename(organization.id, { slug: 'Bad Slug' }))).to.include('body/slug');
      expect((await rename('not-a-uuid', { name: 'x' })).status).to.equal(400);
    });

    it('is refused to an admin member session (403)', async () => {
      const organization = await buildOrganization({ name: 'Kept' });
      const { token } = await buildMemberSession('admin');
      const res = await server.request('PATCH', `/api/sudo/organizations/${organization.id}`, { headers: cookieHeader(token), body: { name: 'Taken over' } });
      expect(res.status).to.equal(403);
    });
  });

  describe('DELETE /api/sudo/organization-members/{membershipId}', () => {
    const remove = (id: string) => sudo(server, 'DELETE', `/api/sudo/organization-members/${id}`);
    /** Leaves the canonical organization with exactly these owners. */
    async function onlyCanonicalOwners(count: number) {
      const canonical = await canonicalOrganization();
      await server.db.knex('organization_members').where({ organization_id: canonical.id, role: 'owner' }).delete();
      const owners = [];
      for (let i = 0; i < count; i++) owners.push(await buildMembership(await buildAccount(), 'owner', canonical));
      return owners;
    }

    it('removes a membership (204, then 404)', async () => {
      const account = await buildAccount();
      const member = await buildMembership(account, 'member', await buildOrganization());
      const res = await remove(member.id);
      expect(res.status).to.equal(204);
      expect(await countRows(server.db.knex, 'organization_members', { id: member.id })).to.equal(0);
      expect((await remove(member.id)).status).to.equal(404);
    });

    it('makes a session whose active organization it was resolve to public', async () => {
      const { account, token } = await buildMemberSession('admin');
      expect((await me(server, token)).body.role).to.equal('admin');
      const [member] = await server.db.knex('organization_members').where({ account_id: account.id });
      expect((await remove(member.id)).status).to.equal(204);
      const after = await server.request('GET', '/api/sudo/organization-members', { headers: cookieHeader(token) });
      expect(after.status).to.equal(401);
      const principal = await me(server, token);
      expect(principal.body.role ?? 'public').to.equal('public');
    });

    it('refuses to remove the last owner of the canonical organization (409 last_canonical_owner)', async () => {
      const [last] = await onlyCanonicalOwners(1);
      const res = await remove(last.id);
      expect(res.status).to.equal(409);
      expect(res.body.code).to.equal('last_canonical_owner');
      expect(await countRows(server.db.knex, 'organization_members', { id: last.id })).to.equal(1);
    });

    it('removes an owner of the canonical organization while another remains, and the last owner of any other organization', async () => {
      const [first, second] = await onlyCanonicalOwners(2);
      expect((await remove(first.id)).status).to.equal(204);
      expect((await remove(second.id)).status).to.equal(409);
      const elsewhere = await buildMembership(await buildAccount(), 'owner', await buildOrganization());
      expect((await remove(elsewhere.id)).status).to.equal(204);
    });

    it('answers 400 for a malformed id, 403 to an admin member session', async () => {
      expect((await remove('nope')).status).to.equal(400);
      const member = await buildMembership(await buildAccount(), 'member', await buildOrganization());
      const { token } = await buildMemberSession('admin');
      const res = await server.request('DELETE', `/api/sudo/organization-members/${member.id}`, { headers: cookieHeader(token) });
      expect(res.status).to.equal(403);
      expect(await countRows(server.db.knex, 'organization_members', { id: member.id })).to.equal(1);
    });
  });
});
