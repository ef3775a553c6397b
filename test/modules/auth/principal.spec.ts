import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { errorPaths, me, signInOrFail } from '../../helpers/accounts.ts';
import {
  buildAccount,
  buildApiKey,
  buildMemberSession,
  buildMembership,
  buildOrganization,
  buildSession,
  canonicalOrganization,
  DEFAULT_PASSWORD,
} from '../../helpers/factories.ts';
import { asSuperuser, cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';
import { Account, OrganizationMember } from '../../../server/modules/accounts/models.ts';

const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

describe('accounts: the current principal and the active organization', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  describe('GET /api/auth/me', () => {
    it('describes an admin member session: role admin, active organization, memberships', async () => {
      const canonical = await canonicalOrganization();
      const other = await buildOrganization({ name: 'Side Venue' });
      const account = await buildAccount({ name: 'Ada Admin' });
      await buildMembership(account, 'admin');
      await buildMembership(account, 'kitchen_pos', other);
      const { token } = await signInOrFail(server, account.email, DEFAULT_PASSWORD);

      const res = await me(server, token);
      expect(res.status).to.equal(200);
      expect(res.body.role).to.equal('admin');
      expect(res.body.authSource).to.equal('session');
      expect(res.body.permissions).to.deep.equal([]);
      expect(res.body.apiKey).to.equal(null);
      expect(res.body.account).to.deep.equal({ id: account.id, email: account.email, name: 'Ada Admin', role: 'USER' });
      expect(res.body.session.id).to.be.a('string');
      expect(new Date(res.body.session.expiresAt).getTime()).to.be.greaterThan(Date.now());
      expect(res.body.activeOrganization).to.deep.equal({ id: canonical.id, name: canonical.name, slug: canonical.slug, memberRole: 'admin' });
      const byOrg = Object.fromEntries(res.body.memberships.map((m: any) => [m.organization.id, m]));
      expect(Object.keys(byOrg)).to.have.members([canonical.id, other.id]);
      expect(byOrg[canonical.id]).to.include({ accountId: account.id, role: 'admin' });
      expect(byOrg[canonical.id].organization).to.include({ canonical: true, slug: canonical.slug });
      expect(byOrg[other.id]).to.include({ role: 'kitchen_pos' });
      expect(byOrg[other.id].organization).to.include({ canonical: false, name: 'Side Venue' });
    });

    for (const [memberRole, role] of [
      ['owner', 'superuser'],
      ['admin', 'admin'],
      ['member', 'staff'],
      ['kitchen_pos', 'staff'],
    ] as const) {
      it(`maps member role ${memberRole} in the active organization to request role ${role}`, async () => {
        const { token } = await buildMemberSession(memberRole);
        const res = await me(server, token);
        expect(res.status).to.equal(200);
        expect(res.body.role).to.equal(role);
        expect(res.body.activeOrganization.memberRole).to.equal(memberRole);
      });
    }

    it('ignores the SUPERUSER account role for a session', async () => {
      const { token } = await buildMemberSession('member', { role: 'SUPERUSER' });
      const res = await me(server, token);
      expect(res.status).to.equal(200);
      expect(res.body.role).to.equal('staff');
      expect(res.body.account.role).to.equal('SUPERUSER');
    });

    it('answers 401 to a caller without credentials', async () => {
      const res = await server.request('GET', '/api/auth/me');
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('unauthenticated');
    });

    it('answers 401 to a session with no active organization', async () => {
      const account = await buildAccount();
      await buildMembership(account, 'admin');
      const token = await buildSession(account, null);
      const res = await me(server, token);
      expect(res.status).to.equal(401);
    });

    it('answers 401 once the membership of the active organization is gone', async () => {
      const { account, token } = await buildMemberSession('admin');
      expect((await me(server, token)).status).to.equal(200);
      await OrganizationMember.query().delete().where('account_id', account.id);
      expect((await me(server, token)).status).to.equal(401);
    });

    it('answers 401 to an expired session', async () => {
      const account = await buildAccount();
      const member = await buildMembership(account, 'admin');
      const token = await buildSession(account, member.organizationId, { expiresAt: new Date(Date.now() - 1000) });
      expect((await me(server, token)).status).to.equal(401);
    });

    it('answers 401 to an unknown session token', async () => {
      expect((await me(server, 'no-such-session-token')).status).to.equal(401);
    });

    it('answers any API key, even one holding no permission (spec §4.6: any non-public role)', async () => {
      const { key, apiKey, owner } = await buildApiKey({ permissions: {} });
      const res = await server.request('GET', '/api/auth/me', { headers: { 'x-api-key': key } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({ role: 'superuser', authSource: 'api-key', permissions: [], session: null, activeOrganization: null });
      expect(res.body.apiKey).to.include({ id: apiKey.id, name: apiKey.name });
      expect(res.body.account).to.include({ id: owner.id, role: 'SUPERUSER' });
      // The key's empty map still grants nothing else.
      const elsewhere = await server.request('GET', '/api/shows', { headers: { 'x-api-key': key } });
      expect(elsewhere.status).to.equal(403);
      expect(elsewhere.body.code).to.equal('missing_permission');
    });

    it('refuses a disabled API key, whatever it holds (401)', async () => {
      const { key } = await buildApiKey({ permissions: {}, enabled: false });
      expect((await server.request('GET', '/api/auth/me', { headers: { 'x-api-key': key } })).status).to.equal(401);
    });

    it('describes a superuser token: role superuser, authSource api-token, no account', async () => {
      const res = await server.request('GET', '/api/auth/me', { headers: asSuperuser });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ role: 'superuser', authSource: 'api-token', permissions: [], account: null, session: null, apiKey: null, activeOrganization: null, memberships: [] });
    });
  });

  describe('the first membership', () => {
    it('is the one created first, even when memberships share created_at (signing in opens it; memberships listed in that order)', async () => {
      const account = await buildAccount();
      const organizations = [await canonicalOrganization()];
      for (let i = 0; i < 5; i++) organizations.push(await buildOrganization());
      // One instant for all: "first" must not fall to the random id.
      const at = new Date();
      const roles = ['admin', 'member', 'kitchen_pos', 'member', 'owner', 'member'] as const;
      for (const [i, organization] of organizations.entries()) {
        await OrganizationMember.query().insert({ accountId: account.id, organizationId: organization.id, role: roles[i], createdAt: at, updatedAt: at });
      }
      const { principal } = await signInOrFail(server, account.email, DEFAULT_PASSWORD);
      expect(principal.role).to.equal('admin');
      expect(principal.activeOrganization.id).to.equal(organizations[0].id);
      expect(principal.memberships.map((m: any) => m.organization.id)).to.deep.equal(organizations.map((o) => o.id));
    });

    it('builders never tie: each row built is stamped after the one before', async () => {
      const account = await buildAccount();
      const first = await buildMembership(account, 'admin');
      const second = await buildMembership(account, 'member', await buildOrganization());
      expect(new Date(second.createdAt).getTime()).to.be.greaterThan(new Date(first.createdAt).getTime());
    });
  });

  describe('PUT /api/auth/active-organization', () => {
    const switchTo = (token: string, organizationId: string) =>
      server.request('PUT', '/api/auth/active-organization', { headers: cookieHeader(token), body: { organizationId } });

    it('switches to another organization of the account; the role follows that membership', async () => {
      const other = await buildOrganization({ name: 'Other Venue' });
      const account = await buildAccount();
      await buildMembership(account, 'admin');
      await buildMembership(account, 'member', other);
      const { token, principal } = await signInOrFail(server, account.email, DEFAULT_PASSWORD);
      expect(principal.role).to.equal('admin');

      const res = await switchTo(token, other.id);
      expect(res.status).to.equal(200);
      expect(res.body.role).to.equal('staff');
      expect(res.body.activeOrganization).to.deep.equal({ id: other.id, name: 'Other Venue', slug: other.slug, memberRole: 'member' });
      expect(res.body.session.id).to.equal(principal.session.id);

      const after = await me(server, token);
      expect(after.status).to.equal(200);
      expect(after.body.role).to.equal('staff');
      expect(after.body.activeOrganization.id).to.equal(other.id);
      const [row] = await server.db.knex('sessions').where('token_hash', sha256Hex(token));
      expect(row.active_organization_id).to.equal(other.id);

      // And back.
      const back = await switchTo(token, (await canonicalOrganization()).id);
      expect(back.status).to.equal(200);
      expect(back.body.role).to.equal('admin');
    });

    it('switching to an owner membership makes the session superuser', async () => {
      const other = await buildOrganization();
      const { account, token } = await buildMemberSession('member');
      await buildMembership(account, 'owner', other);
      const res = await switchTo(token, other.id);
      expect(res.status).to.equal(200);
      expect(res.body.role).to.equal('superuser');
    });

    it('refuses an organization the account does not belong to with 403 not_a_member and changes nothing', async () => {
      const foreign = await buildOrganization();
      const { token } = await buildMemberSession('admin');
      const res = await switchTo(token, foreign.id);
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('not_a_member');
      const after = await me(server, token);
      expect(after.status).to.equal(200);
      expect(after.body.activeOrganization.id).to.equal((await canonicalOrganization()).id);
      expect(after.body.role).to.equal('admin');
    });

    it('refuses an organization id that does not exist with 403 not_a_member', async () => {
      const { token } = await buildMemberSession('admin');
      const res = await switchTo(token, '00000000-0000-4000-8000-000000000000');
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('not_a_member');
    });

    it('works for a session whose active organization no longer admits it', async () => {
      const other = await buildOrganization();
      const { account, token } = await buildMemberSession('admin');
      await buildMembership(account, 'kitchen_pos', other);
      // Lose the membership of the active organization: the session now resolves as public.
      await OrganizationMember.query().delete().where({ account_id: account.id, organization_id: (await canonicalOrganization()).id });
      expect((await me(server, token)).status).to.equal(401);

      const res = await switchTo(token, other.id);
      expect(res.status).to.equal(200);
      expect(res.body.role).to.equal('staff');
      expect((await me(server, token)).status).to.equal(200);
    });

    it('works for a session that never had an active organization', async () => {
      const account = await buildAccount();
      const member = await buildMembership(account, 'member');
      const token = await buildSession(account, null);
      const res = await switchTo(token, member.organizationId);
      expect(res.status).to.equal(200);
      expect(res.body.role).to.equal('staff');
    });

    it('is for dashboard sessions only: 401 without one, also for a superuser token', async () => {
      const organizationId = (await canonicalOrganization()).id;
      const anonymous = await server.request('PUT', '/api/auth/active-organization', { body: { organizationId } });
      expect(anonymous.status).to.equal(401);
      const token = await server.request('PUT', '/api/auth/active-organization', { headers: asSuperuser, body: { organizationId } });
      expect(token.status).to.equal(401);
    });

    it('refuses the session of a banned account (401)', async () => {
      const { account, token } = await buildMemberSession('admin');
      await Account.query().patch({ banned: true }).where('id', account.id);
      const res = await switchTo(token, (await canonicalOrganization()).id);
      expect(res.status).to.equal(401);
    });

    it('rejects an organizationId that is not a UUID with 400 naming the field', async () => {
      const { token } = await buildMemberSession('admin');
      const res = await switchTo(token, 'canonical');
      expect(res.status).to.equal(400);
      expect(errorPaths(res)).to.include('body/organizationId');
    });
  });
});
