import { expect } from 'chai';
import { ApiKey } from '../../server/modules/apiKeys/models.ts';
import { buildAccount, buildApiKey, buildMembership, buildMemberSession, buildSession, permissionMap } from '../helpers/factories.ts';
import { asSuperuser, cookieHeader, SECOND_SUPERUSER_TOKEN, startTestServer, SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';

/** Identity resolution (spec §5.1–5.3): order, fall-through, what /api/auth/me reports, and log redaction. */

const ME = '/api/auth/me';
const BOGUS_KEY = 'vk_this-key-does-not-exist-anywhere-000000';
const BOGUS_TOKEN = 'not-a-configured-superuser-token';

describe('identity resolution (spec §5.1)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  describe('a failing credential falls through to the next', () => {
    it('invalid x-api-key + valid superuser token → superuser via api-token (both header forms)', async () => {
      const forms: Array<Record<string, string>> = [
        { 'x-api-key': BOGUS_KEY, 'x-api-token': SUPERUSER_TOKEN },
        { 'x-api-key': BOGUS_KEY, authorization: `Bearer ${SUPERUSER_TOKEN}` },
      ];
      for (const headers of forms) {
        const res = await server.request('GET', ME, { headers });
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ role: 'superuser', authSource: 'api-token' });
      }
    });

    it('invalid x-api-key + valid session → the session', async () => {
      const { token, account } = await buildMemberSession('admin');
      const res = await server.request('GET', ME, { headers: { 'x-api-key': BOGUS_KEY, ...cookieHeader(token) } });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ role: 'admin', authSource: 'session' });
      expect(res.body.account.id).to.equal(account.id);
    });

    it('a disabled, expired or orphaned key + valid session → the session', async () => {
      const { token } = await buildMemberSession('member');
      const disabled = await buildApiKey({ enabled: false, permissions: permissionMap('tables:read') });
      const expired = await buildApiKey({ expiresAt: new Date(Date.now() - 1000), permissions: permissionMap('tables:read') });
      const demoted = await buildApiKey({ permissions: permissionMap('tables:read') });
      await server.db.knex('accounts').where('id', demoted.owner.id).update({ role: 'USER' });
      for (const key of [disabled.key, expired.key, demoted.key]) {
        const res = await server.request('GET', ME, { headers: { 'x-api-key': key, ...cookieHeader(token) } });
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ role: 'staff', authSource: 'session' });
      }
    });

    it('invalid superuser token + valid session → the session (both header forms)', async () => {
      const { token } = await buildMemberSession('member');
      const forms: Array<Record<string, string>> = [{ 'x-api-token': BOGUS_TOKEN }, { authorization: `Bearer ${BOGUS_TOKEN}` }, { authorization: `Basic ${SUPERUSER_TOKEN}` }];
      for (const headers of forms) {
        const res = await server.request('GET', ME, { headers: { ...headers, ...cookieHeader(token) } });
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ role: 'staff', authSource: 'session' });
      }
    });

    it('an invalid x-api-token does not hide a valid bearer token', async () => {
      const res = await server.request('GET', ME, { headers: { 'x-api-token': BOGUS_TOKEN, authorization: `Bearer ${SUPERUSER_TOKEN}` } });
      expect(res.status).to.equal(200);
      expect(res.body.authSource).to.equal('api-token');
    });

    it('accepts every configured superuser token', async () => {
      const res = await server.request('GET', ME, { headers: { 'x-api-token': SECOND_SUPERUSER_TOKEN } });
      expect(res.status).to.equal(200);
      expect(res.body.role).to.equal('superuser');
      // A prefix of a configured token is not a configured token.
      expect((await server.request('GET', ME, { headers: { 'x-api-token': SUPERUSER_TOKEN.slice(0, -1) } })).status).to.equal(401);
    });

    it('a valid API key wins over a valid session', async () => {
      const { token } = await buildMemberSession('member');
      const { key, apiKey } = await buildApiKey({ permissions: permissionMap('tables:read') });
      const res = await server.request('GET', ME, { headers: { 'x-api-key': key, ...cookieHeader(token) } });
      expect(res.body).to.include({ authSource: 'api-key' });
      expect(res.body.apiKey.id).to.equal(apiKey.id);
    });

    it('an expired session → public (401 on a staff operation, public operations still served)', async () => {
      const account = await buildAccount();
      const member = await buildMembership(account, 'owner');
      const token = await buildSession(account, member.organizationId, { expiresAt: new Date(Date.now() - 1000) });
      const res = await server.request('GET', ME, { headers: cookieHeader(token) });
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('unauthenticated');
      const live = await server.request('GET', '/api/system/health/live', { headers: cookieHeader(token) });
      expect(live.status).to.equal(200);
      // The same session unexpired resolves: the expiry alone made the difference.
      await server.db.knex('sessions').where('account_id', account.id).update({ expires_at: new Date(Date.now() + 60_000) });
      expect((await server.request('GET', ME, { headers: cookieHeader(token) })).body.role).to.equal('superuser');
    });
  });

  describe('API-key bookkeeping', () => {
    it('increments request_count and sets last_used_at on each API-key request (best effort)', async () => {
      const { key, apiKey } = await buildApiKey({ permissions: permissionMap('tables:read') });
      expect(Number(apiKey.requestCount)).to.equal(0);
      expect(apiKey.lastUsedAt).to.equal(null);
      const before = Date.now();
      for (let i = 0; i < 3; i++) expect((await server.request('GET', ME, { headers: { 'x-api-key': key } })).status).to.equal(200);
      // Also a denied request is a use of the key.
      expect((await server.request('GET', '/api/sudo/users', { headers: { 'x-api-key': key } })).status).to.equal(403);
      // Counted in memory; written on flush (every API_KEY_USAGE_FLUSH_MS, or now).
      await server.app.context.credentials.flush();
      const row = await ApiKey.query().findById(apiKey.id);
      expect(Number(row!.requestCount)).to.equal(4);
      expect(row!.lastUsedAt).to.be.instanceOf(Date);
      expect(new Date(row!.lastUsedAt!).getTime()).to.be.at.least(before - 5_000);
    });

    it('does not count requests with a key that is not accepted', async () => {
      const { key, apiKey } = await buildApiKey({ enabled: false, permissions: permissionMap('tables:read') });
      await server.request('GET', ME, { headers: { 'x-api-key': key } });
      await server.app.context.credentials.flush();
      const row = await ApiKey.query().findById(apiKey.id);
      expect(Number(row!.requestCount)).to.equal(0);
      expect(row!.lastUsedAt).to.equal(null);
    });
  });

  describe('GET /api/auth/me', () => {
    it('api-key: role superuser, permissions flattened <resource>:<action>, the key and its owner', async () => {
      const owner = await buildAccount({ role: 'SUPERUSER' });
      const { key, apiKey } = await buildApiKey({ owner, name: 'reporting', permissions: { users: ['read', 'update'], tables: ['read'] } });
      const res = await server.request('GET', ME, { headers: { 'x-api-key': key } });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ role: 'superuser', authSource: 'api-key' });
      expect(res.body.permissions).to.have.members(['tables:read', 'users:read', 'users:update']);
      expect(res.body.permissions).to.have.length(3);
      expect(res.body.apiKey).to.deep.include({ id: apiKey.id, name: 'reporting', start: key.slice(0, 11) });
      expect(res.body.account).to.deep.include({ id: owner.id, role: 'SUPERUSER' });
      expect(res.body.session).to.equal(null);
      expect(res.body.activeOrganization).to.equal(null);
      expect(res.text).to.not.contain(key);
    });

    it('api-token: role superuser, permissions [] and no account (both header forms)', async () => {
      const forms: Array<Record<string, string>> = [asSuperuser, { authorization: `Bearer ${SUPERUSER_TOKEN}` }];
      for (const headers of forms) {
        const res = await server.request('GET', ME, { headers });
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.include({ role: 'superuser', authSource: 'api-token', permissions: [], account: null, session: null, apiKey: null });
      }
    });

    it('session: permissions [] and the active organization with the member role', async () => {
      const { token, account } = await buildMemberSession('kitchen_pos');
      const res = await server.request('GET', ME, { headers: cookieHeader(token) });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ role: 'staff', authSource: 'session', permissions: [], apiKey: null });
      expect(res.body.account.id).to.equal(account.id);
      expect(res.body.activeOrganization.memberRole).to.equal('kitchen_pos');
      expect(res.body.session.id).to.be.a('string');
    });
  });

  describe('the account role is never used for sessions (spec §2.2, §5.1)', () => {
    it('a SUPERUSER account whose membership is member resolves to staff and cannot reach superuser routes', async () => {
      const { token } = await buildMemberSession('member', { role: 'SUPERUSER' });
      const me = await server.request('GET', ME, { headers: cookieHeader(token) });
      expect(me.body).to.include({ role: 'staff', authSource: 'session' });
      expect(me.body.account.role).to.equal('SUPERUSER');
      const users = await server.request('GET', '/api/sudo/users', { headers: cookieHeader(token) });
      expect(users.status).to.equal(403);
      expect(users.body.code).to.equal('insufficient_role');
    });

    it('a USER account whose membership is owner resolves to superuser', async () => {
      const { token } = await buildMemberSession('owner', { role: 'USER' });
      const me = await server.request('GET', ME, { headers: cookieHeader(token) });
      expect(me.body).to.include({ role: 'superuser', authSource: 'session' });
      expect((await server.request('GET', '/api/sudo/users', { headers: cookieHeader(token) })).status).to.equal(200);
    });

    it('a SUPERUSER account without a membership in its active organization is public', async () => {
      const account = await buildAccount({ role: 'SUPERUSER' });
      const token = await buildSession(account, null);
      const res = await server.request('GET', ME, { headers: cookieHeader(token) });
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('no_active_membership');
    });
  });

  describe('logs', () => {
    it('never contain the credentials of a request, while the request line and its id are there', async () => {
      const { key } = await buildApiKey({ permissions: permissionMap('tables:read') });
      const { token } = await buildMemberSession('admin');
      const bogusCookie = 'cookie-secret-value-that-must-not-be-logged';
      const password = 'password-that-must-not-be-logged';
      server.logs.length = 0;
      const requestId = 'redaction-check-1';
      const headers = {
        'x-request-id': requestId,
        'x-api-key': key,
        'x-api-token': SUPERUSER_TOKEN,
        authorization: `Bearer ${SECOND_SUPERUSER_TOKEN}`,
        cookie: `venue_session=${token}; other=${bogusCookie}`,
      };
      const res = await server.request('GET', `${ME}?token=${encodeURIComponent(key)}`, { headers });
      expect(res.status).to.equal(200);
      // Failing and erroring paths log too: a bad sign-in, a bad body, an unknown path.
      await server.request('POST', '/api/auth/sign-in', { headers, body: { identifier: 'nobody@example.test', password } });
      await server.request('POST', '/api/auth/sign-in', { headers, rawBody: `{"password": "${password}"`, unchecked: true });
      await server.request('GET', `/api/no-such-thing?key=${key}`, { headers });

      const text = JSON.stringify(server.logs);
      for (const secret of [key, SUPERUSER_TOKEN, SECOND_SUPERUSER_TOKEN, token, bogusCookie, password]) {
        expect(text.includes(secret), `a secret ${secret.slice(0, 6)}… is in the logs`).to.equal(false);
      }
      const line = server.logs.find((l) => l.msg === 'request' && l.requestId === requestId && l.path === ME);
      expect(line, text.slice(0, 2000)).to.include({ method: 'GET', status: 200, role: 'superuser' });
      expect(server.logs.filter((l) => l.requestId === requestId).length).to.be.at.least(4);
    });
  });
});
