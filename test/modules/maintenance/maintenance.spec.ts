import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { countRows, errorPaths, me, meWithKey, signInOrFail, sudo } from '../../helpers/accounts.ts';
import { buildAccount, buildApiKey, buildMemberSession, buildMembership, buildOrganization, canonicalOrganization, DEFAULT_PASSWORD, permissionMap } from '../../helpers/factories.ts';
import { asSuperuser, cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';

const MIGRATIONS = fs
  .readdirSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../migrations'))
  .filter((name) => /^\d{14}_[\w-]+\.ts$/.test(name))
  .map((name) => name.replace(/\.ts$/, ''))
  .sort();

const CONFIRM = 'RESET DATABASE';

/** Some rows in every identity table; returns what the checks need. */
async function populate() {
  const account = await buildAccount({ role: 'SUPERUSER' });
  await buildMembership(account, 'admin');
  await buildMembership(account, 'member', await buildOrganization());
  const { token } = await buildMemberSession('admin');
  const { key } = await buildApiKey({ owner: account, permissions: permissionMap('auth:read') });
  return { account, token, key };
}

async function tableCounts(server: TestServer) {
  const knex = server.db.knex;
  return {
    accounts: await countRows(knex, 'accounts'),
    organizations: await countRows(knex, 'organizations'),
    members: await countRows(knex, 'organization_members'),
    sessions: await countRows(knex, 'sessions'),
    apiKeys: await countRows(knex, 'api_keys'),
  };
}

describe('accounts: database maintenance @db', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  describe('POST /api/sudo/run-migrations', () => {
    it('answers 200 with nothing applied and every migration current', async () => {
      expect(MIGRATIONS.length).to.be.greaterThan(0);
      const res = await sudo(server, 'POST', '/api/sudo/run-migrations');
      expect(res.status).to.equal(200);
      expect(res.body.applied).to.deep.equal([]);
      expect(res.body.current).to.deep.equal(MIGRATIONS);
    });

    it('is refused to an admin session (403) and without credentials (401)', async () => {
      const { token } = await buildMemberSession('admin');
      expect((await server.request('POST', '/api/sudo/run-migrations', { headers: cookieHeader(token) })).status).to.equal(403);
      expect((await server.request('POST', '/api/sudo/run-migrations')).status).to.equal(401);
    });
  });

  describe('POST /api/sudo/reset-database, refused', () => {
    it('requires the confirmation in the body (400) and keeps the data', async () => {
      await populate();
      const before = await tableCounts(server);
      for (const body of [undefined, {}, { confirm: 'yes' }, { confirm: 'reset database' }]) {
        const res = await server.request('POST', '/api/sudo/reset-database', { headers: asSuperuser, body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.code).to.equal('validation_failed');
        expect(errorPaths(res).some((p) => p === 'body' || p.startsWith('body/confirm')), JSON.stringify(res.body.errors)).to.equal(true);
      }
      expect(await tableCounts(server)).to.deep.equal(before);
    });

    it('is refused to an admin session (403) even with the confirmation', async () => {
      const { token } = await buildMemberSession('admin');
      const before = await tableCounts(server);
      const res = await server.request('POST', '/api/sudo/reset-database', { headers: cookieHeader(token), body: { confirm: CONFIRM } });
      expect(res.status).to.equal(403);
      expect(await tableCounts(server)).to.deep.equal(before);
    });
  });

  describe('POST /api/sudo/reset-database in production', () => {
    let production: TestServer;
    before(async () => {
      production = await startTestServer({ config: { nodeEnv: 'production', allowDatabaseReset: false } });
    });
    after(() => production.close());

    it('refuses with 403 reset_refused unless ALLOW_DATABASE_RESET, and keeps the data', async () => {
      const { token, key } = await populate();
      const before = await tableCounts(production);
      const res = await production.request('POST', '/api/sudo/reset-database', { headers: asSuperuser, body: { confirm: CONFIRM } });
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('reset_refused');
      expect(await tableCounts(production)).to.deep.equal(before);
      expect((await me(production, token)).status).to.equal(200);
      expect((await meWithKey(production, key)).status).to.equal(200);
    });
  });

  // These wipe every table of the shared test database: keep them last in this file. (Each spec file's
  // startTestServer empties the data anyway; the schema is rebuilt by the reset itself.)
  describe('POST /api/sudo/reset-database, allowed (destroys all data: keep last)', () => {
    it('outside production: every account, session and key is gone, the canonical organization is back', async () => {
      const { account, token, key } = await populate();
      const canonicalBefore = await canonicalOrganization();
      const res = await server.request('POST', '/api/sudo/reset-database', { headers: asSuperuser, body: { confirm: CONFIRM } });
      expect(res.status).to.equal(200);
      expect(res.body.rolledBack).to.have.members(MIGRATIONS);
      expect(res.body.applied).to.deep.equal(MIGRATIONS);

      expect(await tableCounts(server)).to.deep.equal({ accounts: 0, organizations: 1, members: 0, sessions: 0, apiKeys: 0 });
      const users = await sudo(server, 'GET', '/api/sudo/users');
      expect(users.status).to.equal(200);
      expect(users.body).to.include({ total: 0 });
      expect(users.body.items).to.deep.equal([]);
      const organizations = await sudo(server, 'GET', '/api/sudo/organizations');
      expect(organizations.body.items).to.have.length(1);
      expect(organizations.body.items[0]).to.include({ canonical: true, slug: canonicalBefore.slug });

      expect((await me(server, token)).status).to.equal(401);
      expect((await meWithKey(server, key)).status).to.equal(401);
      expect((await sudo(server, 'GET', `/api/sudo/users/${account.id}`)).status).to.equal(404);
      // The schema works again: migrations are current and an account can be made and used.
      expect((await sudo(server, 'POST', '/api/sudo/run-migrations')).body).to.deep.equal({ applied: [], current: MIGRATIONS });
      const created = await sudo(server, 'POST', '/api/sudo/users', { username: 'after.reset', name: 'After', password: DEFAULT_PASSWORD });
      expect(created.status).to.equal(201);
      expect((await sudo(server, 'POST', '/api/sudo/ensure-organization-member', { userId: created.body.id, role: 'admin' })).status).to.equal(200);
      const { principal } = await signInOrFail(server, 'after.reset', DEFAULT_PASSWORD);
      expect(principal.role).to.equal('admin');
    });

    it('in production with ALLOW_DATABASE_RESET=true', async () => {
      const allowed = await startTestServer({ config: { nodeEnv: 'production', allowDatabaseReset: true } });
      try {
        await populate();
        const res = await allowed.request('POST', '/api/sudo/reset-database', { headers: asSuperuser, body: { confirm: CONFIRM } });
        expect(res.status).to.equal(200);
        expect(await countRows(allowed.db.knex, 'accounts')).to.equal(0);
        expect(await countRows(allowed.db.knex, 'organizations', { canonical: true })).to.equal(1);
      } finally {
        await allowed.close();
      }
    });
  });
});
