import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { countRows, errorPaths, meWithKey, sudo } from '../../helpers/accounts.ts';
import { contract } from '../../helpers/contract.ts';
import { eventually } from '../../helpers/eventually.ts';
import { buildAccount, buildApiKey, buildMemberSession, permissionMap } from '../../helpers/factories.ts';
import { cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';

const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const inOneHour = () => new Date(Date.now() + 3600_000).toISOString();

describe('accounts: /api/sudo/api-keys', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const createKey = (body: Record<string, unknown>) => sudo(server, 'POST', '/api/sudo/api-keys', body);
  const updateKey = (id: string, body: Record<string, unknown>) => sudo(server, 'PATCH', `/api/sudo/api-keys/${id}`, body);
  const listKeys = (query = '') => sudo(server, 'GET', `/api/sudo/api-keys${query}`);

  async function superuserAccount() {
    return buildAccount({ role: 'SUPERUSER' });
  }

  describe('create', () => {
    it('returns the plaintext key once, with the vk_ prefix and its first 11 characters as start', async () => {
      const owner = await superuserAccount();
      const res = await createKey({ name: 'terminal', userId: owner.id, permissions: { tables: ['read'] } });
      expect(res.status).to.equal(201);
      const { key, apiKey } = res.body;
      expect(key).to.be.a('string').and.match(/^vk_/);
      expect(key.length).to.be.greaterThan(40);
      expect(apiKey.start).to.equal(key.slice(0, 11));
      expect(apiKey).to.include({ name: 'terminal', prefix: 'vk_', ownerId: owner.id, ownerEmail: owner.email, enabled: true, expiresAt: null, requestCount: 0, lastUsedAt: null });
      expect(apiKey.permissions).to.deep.equal({ tables: ['read'] });

      const [row] = await server.db.knex('api_keys').where('id', apiKey.id);
      expect(row.key_hash).to.equal(sha256Hex(key));
      expect(JSON.stringify(row)).not.to.contain(key);
    });

    it('authenticates with the key: GET /api/auth/me as api-key with its permissions', async () => {
      const owner = await superuserAccount();
      const created = await createKey({ name: 'reader', userId: owner.id, permissions: { tables: ['read'] } });
      const res = await meWithKey(server, created.body.key);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ role: 'superuser', authSource: 'api-key', permissions: ['tables:read'], session: null, activeOrganization: null });
      expect(res.body.apiKey).to.deep.equal({ id: created.body.apiKey.id, name: 'reader', start: created.body.apiKey.start, expiresAt: null });
      expect(res.body.account).to.include({ id: owner.id, role: 'SUPERUSER' });

      // The usage counter is best-effort (not awaited on the request path) but does arrive.
      const listed = await eventually(
        () => listKeys(`?userId=${owner.id}`),
        { until: (r) => r.body.items[0]?.requestCount >= 1, timeoutMs: 3000, intervalMs: 25, orLast: true },
      );
      expect(listed.body.items[0].requestCount).to.equal(1);
      expect(listed.body.items[0].lastUsedAt).to.be.a('string');
    });

    it('never lists the plaintext key or its hash', async () => {
      const owner = await superuserAccount();
      const created = await createKey({ name: 'secret', userId: owner.id, permissions: {} });
      const list = await listKeys();
      expect(list.status).to.equal(200);
      expect(list.body.items.map((k: any) => k.id)).to.include(created.body.apiKey.id);
      expect(list.text).not.to.contain(created.body.key);
      expect(list.text).not.to.contain(sha256Hex(created.body.key));
      for (const item of list.body.items) expect(item).not.to.have.any.keys('key', 'keyHash', 'hash');
    });

    it('refuses an owner without the SUPERUSER account role with 422 owner_not_superuser', async () => {
      const owner = await buildAccount({ role: 'USER' });
      const res = await createKey({ name: 'nope', userId: owner.id, permissions: { tables: ['read'] } });
      expect(res.status).to.equal(422);
      expect(res.body.code).to.equal('owner_not_superuser');
      expect(errorPaths(res)).to.include('body/userId');
      expect(await countRows(server.db.knex, 'api_keys', { account_id: owner.id })).to.equal(0);
    });

    it('says in the 422 which account lacks the role and how to give it; with the role given, the same request creates the key', async () => {
      const owner = await buildAccount({ role: 'USER', email: 'seeded-admin@example.test' });
      const body = { name: 'after-promotion', userId: owner.id, permissions: { tables: ['read'] } };
      const refused = await createKey(body);
      expect(refused.status).to.equal(422);
      expect(refused.body.detail).to.contain('SUPERUSER account role').and.contain('seeded-admin@example.test has USER');
      expect(refused.body.detail).to.contain(`PATCH /api/sudo/users/${owner.id}`);
      expect(refused.body.errors).to.deep.equal([
        { path: 'body/userId', message: 'seeded-admin@example.test does not have the SUPERUSER account role', code: 'owner_not_superuser' },
      ]);
      expect((await sudo(server, 'PATCH', `/api/sudo/users/${owner.id}`, { role: 'SUPERUSER' })).status).to.equal(200);
      const created = await createKey(body);
      expect(created.status).to.equal(201);
      expect((await meWithKey(server, created.body.key)).status).to.equal(200);
    });

    it('answers 404 for an unknown owner and 400 without one', async () => {
      const unknown = await createKey({ name: 'nope', userId: MISSING_ID, permissions: {} });
      expect(unknown.status).to.equal(404);
      const missing = await createKey({ name: 'nope', permissions: {} });
      expect(missing.status).to.equal(400);
      expect(errorPaths(missing)).to.include('body/userId');
    });

    it('refuses a permission no key-callable operation declares, naming body/permissions/<resource>', async () => {
      const owner = await superuserAccount();
      const made = await createKey({ name: 'typo', userId: owner.id, permissions: { tables: ['read'], shows: ['fly'] } });
      expect(made.status).to.equal(400);
      expect(errorPaths(made)).to.include('body/permissions/shows');
      expect(errorPaths(made)).not.to.include('body/permissions/tables');
      // Permissions of operations keys may never call cannot be granted either.
      const sudoPermission = await createKey({ name: 'sudo', userId: owner.id, permissions: { users: ['read'] } });
      expect(sudoPermission.status).to.equal(400);
      expect(errorPaths(sudoPermission)).to.include('body/permissions/users');
      const badShape = await createKey({ name: 'shape', userId: owner.id, permissions: { Auth: ['read'] } });
      expect(badShape.status).to.equal(400);
      expect(await countRows(server.db.knex, 'api_keys', { account_id: owner.id })).to.equal(0);
    });

    it('refuses an expiry in the past with 400 naming body/expiresAt', async () => {
      const owner = await superuserAccount();
      const res = await createKey({ name: 'old', userId: owner.id, permissions: {}, expiresAt: new Date(Date.now() - 1000).toISOString() });
      expect(res.status).to.equal(400);
      expect(errorPaths(res)).to.include('body/expiresAt');
      expect(await countRows(server.db.knex, 'api_keys', { account_id: owner.id })).to.equal(0);
    });

    it('creates a key that works until its expiry, and a disabled one that never works', async () => {
      const owner = await superuserAccount();
      const expiresAt = new Date(Date.now() + 3600_000);
      const expiring = await createKey({ name: 'expiring', userId: owner.id, permissions: { tables: ['read'] }, expiresAt: expiresAt.toISOString() });
      expect(expiring.status).to.equal(201);
      expect(expiring.body.apiKey.expiresAt).to.equal(expiresAt.toISOString());
      expect((await meWithKey(server, expiring.body.key)).status).to.equal(200);
      // The server remembers accepted keys for a while, but checks the expiry on every request: its clock is
      // moved to the expiry instead of waiting for it.
      const credentials = server.app.context.credentials;
      credentials.now = () => expiresAt.getTime() - 1;
      try {
        expect((await meWithKey(server, expiring.body.key)).status).to.equal(200);
        credentials.now = () => expiresAt.getTime();
        expect((await meWithKey(server, expiring.body.key)).status).to.equal(401);
      } finally {
        credentials.now = Date.now;
      }

      const disabled = await createKey({ name: 'off', userId: owner.id, permissions: { tables: ['read'] }, enabled: false });
      expect(disabled.status).to.equal(201);
      expect(disabled.body.apiKey.enabled).to.equal(false);
      expect((await meWithKey(server, disabled.body.key)).status).to.equal(401);
    });

    it('stops working when its owner loses the SUPERUSER role', async () => {
      const owner = await superuserAccount();
      const created = await createKey({ name: 'demoted', userId: owner.id, permissions: { tables: ['read'] } });
      expect((await meWithKey(server, created.body.key)).status).to.equal(200);
      expect((await sudo(server, 'PATCH', `/api/sudo/users/${owner.id}`, { role: 'USER' })).status).to.equal(200);
      expect((await meWithKey(server, created.body.key)).status).to.equal(401);
    });

    it('a key without the operation permission is refused with 403 missing_permission', async () => {
      const owner = await superuserAccount();
      const created = await createKey({ name: 'empty', userId: owner.id, permissions: {} });
      const res = await server.request('GET', '/api/tables', { headers: { 'x-api-key': created.body.key } });
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('missing_permission');
    });
  });

  describe('list', () => {
    it('filters by owner, newest first', async () => {
      const owner = await superuserAccount();
      const other = await superuserAccount();
      const first = await createKey({ name: 'first', userId: owner.id, permissions: {} });
      // A second earlier than the next one: keys created within one clock tick would tie (ties go by id).
      await server.db.knex('api_keys').where('id', first.body.apiKey.id).update({ created_at: new Date(Date.now() - 1000) });
      const second = await createKey({ name: 'second', userId: owner.id, permissions: {} });
      await createKey({ name: 'other', userId: other.id, permissions: {} });
      const res = await listKeys(`?userId=${owner.id}`);
      expect(res.status).to.equal(200);
      expect(res.body.items.map((k: any) => k.id)).to.deep.equal([second.body.apiKey.id, first.body.apiKey.id]);
      expect(res.body.items[0].ownerEmail).to.equal(owner.email);
      const malformed = await listKeys('?userId=nope');
      expect(malformed.status).to.equal(400);
      expect(errorPaths(malformed)).to.include('query/userId');
    });
  });

  describe('update', () => {
    it('renames, disables and re-enables, changes expiry and permissions', async () => {
      const owner = await superuserAccount();
      const { body: created } = await createKey({ name: 'before', userId: owner.id, permissions: { tables: ['read'] } });
      const { key } = created;
      const id = created.apiKey.id;

      const renamed = await updateKey(id, { name: 'after' });
      expect(renamed.status).to.equal(200);
      expect(renamed.body).to.include({ id, name: 'after', enabled: true });
      expect((await meWithKey(server, key)).body.apiKey.name).to.equal('after');

      const disabled = await updateKey(id, { enabled: false });
      expect(disabled.body.enabled).to.equal(false);
      const refused = await meWithKey(server, key);
      expect(refused.status).to.equal(401);
      expect((await updateKey(id, { enabled: true })).body.enabled).to.equal(true);
      expect((await meWithKey(server, key)).status).to.equal(200);

      const expiry = inOneHour();
      const expiring = await updateKey(id, { expiresAt: expiry });
      expect(new Date(expiring.body.expiresAt).getTime()).to.equal(new Date(expiry).getTime());
      expect((await meWithKey(server, key)).body.apiKey.expiresAt).to.be.a('string');
      expect((await updateKey(id, { expiresAt: null })).body.expiresAt).to.equal(null);

      const stripped = await updateKey(id, { permissions: {} });
      expect(stripped.body.permissions).to.deep.equal({});
      const tables = () => server.request('GET', '/api/tables', { headers: { 'x-api-key': key } });
      expect((await tables()).status).to.equal(403);
      const restored = await updateKey(id, { permissions: { tables: ['read'] } });
      expect(restored.body.permissions).to.deep.equal({ tables: ['read'] });
      const works = await meWithKey(server, key);
      expect(works.status).to.equal(200);
      expect(works.body.permissions).to.deep.equal(['tables:read']);
      expect((await tables()).status).to.equal(200);
    });

    it('refuses an unknown permission or a past expiry with 400 and changes nothing', async () => {
      const owner = await superuserAccount();
      const { body: created } = await createKey({ name: 'steady', userId: owner.id, permissions: { tables: ['read'] } });
      const id = created.apiKey.id;
      const permission = await updateKey(id, { permissions: { tables: ['read', 'fly'] } });
      expect(permission.status).to.equal(400);
      expect(errorPaths(permission)).to.include('body/permissions/tables');
      const past = await updateKey(id, { expiresAt: new Date(Date.now() - 1000).toISOString(), name: 'renamed' });
      expect(past.status).to.equal(400);
      expect(errorPaths(past)).to.include('body/expiresAt');
      const [item] = (await listKeys(`?userId=${owner.id}`)).body.items;
      expect(item).to.include({ name: 'steady', expiresAt: null });
      expect(item.permissions).to.deep.equal({ tables: ['read'] });
    });

    it('answers 404 for an unknown key and 400 for an empty body', async () => {
      expect((await updateKey(MISSING_ID, { name: 'ghost' })).status).to.equal(404);
      const owner = await superuserAccount();
      const { body: created } = await createKey({ name: 'x', userId: owner.id, permissions: {} });
      expect((await updateKey(created.apiKey.id, {})).status).to.equal(400);
    });
  });

  describe('delete', () => {
    it('deletes the key: it stops working at once (204, then 404)', async () => {
      const owner = await superuserAccount();
      const { body: created } = await createKey({ name: 'doomed', userId: owner.id, permissions: { tables: ['read'] } });
      expect((await meWithKey(server, created.key)).status).to.equal(200);
      const res = await sudo(server, 'DELETE', `/api/sudo/api-keys/${created.apiKey.id}`);
      expect(res.status).to.equal(204);
      expect((await meWithKey(server, created.key)).status).to.equal(401);
      expect((await listKeys(`?userId=${owner.id}`)).body.items).to.deep.equal([]);
      expect((await sudo(server, 'DELETE', `/api/sudo/api-keys/${created.apiKey.id}`)).status).to.equal(404);
    });
  });

  describe('GET /api/sudo/api-keys/permissions', () => {
    it('lists exactly the permissions of operations API keys may call, with those operations', async () => {
      const res = await sudo(server, 'GET', '/api/sudo/api-keys/permissions');
      expect(res.status).to.equal(200);
      const callable = contract.operations.filter((op) => op.permission && op.apiKey === 'allow' && op.access !== 'disabled');
      const expected = new Map<string, string[]>();
      for (const op of callable) expected.set(op.permission!, [...(expected.get(op.permission!) ?? []), op.operationId]);

      const listed = new Map<string, string[]>(res.body.items.map((i: any) => [i.permission, i.operations]));
      expect([...listed.keys()]).to.have.members([...expected.keys()]);
      for (const [permission, operations] of expected) expect(listed.get(permission)).to.have.members(operations);
      expect(listed.get('tables:read')).to.include.members(['listTables', 'getTable']);

      const denyOnly = contract.operations
        .filter((op) => op.apiKey === 'deny' && op.permission)
        .map((op) => op.permission!)
        .filter((permission) => !expected.has(permission));
      expect(denyOnly.length, 'the contract has x-api-key: deny operations').to.be.greaterThan(0);
      for (const permission of denyOnly) expect(listed.has(permission), permission).to.equal(false);
      const denyOperations = new Set(contract.operations.filter((op) => op.apiKey === 'deny').map((op) => op.operationId));
      for (const operations of listed.values()) for (const op of operations) expect(denyOperations.has(op), op).to.equal(false);
    });
  });

  describe('API keys and /api/sudo/*', () => {
    it('never reach a sudo operation, whatever their permission map says (403 api_key_not_allowed)', async () => {
      // Written directly: the API would refuse to grant these permissions in the first place.
      const everything = permissionMap(...new Set(contract.operations.map((op) => op.permission).filter((p): p is string => Boolean(p))));
      const { key } = await buildApiKey({ permissions: everything });
      const sudoOps = contract.operations.filter((op) => op.path.startsWith('/api/sudo/'));
      expect(sudoOps.length).to.be.greaterThan(10);
      const accountsBefore = await countRows(server.db.knex, 'accounts');
      for (const op of sudoOps) {
        const path = op.path.replace(/\{[^}]+\}/g, MISSING_ID);
        // A body that would be refused anyway (a wrong reset confirmation), should the guard ever let it through.
        const body = op.requestBody ? (op.operationId === 'resetDatabase' ? { confirm: 'no' } : {}) : undefined;
        const res = await server.request(op.method, path, { headers: { 'x-api-key': key }, body });
        expect(res.status, `${op.operationId}`).to.equal(403);
        expect(res.body.code, `${op.operationId}`).to.equal('api_key_not_allowed');
      }
      expect(await countRows(server.db.knex, 'accounts')).to.equal(accountsBefore);
      // The same key does work where its map applies.
      expect((await meWithKey(server, key)).status).to.equal(200);
    });

    it('are administered by superusers only: an admin session gets 403', async () => {
      const { token } = await buildMemberSession('admin');
      const owner = await superuserAccount();
      const res = await server.request('POST', '/api/sudo/api-keys', {
        headers: cookieHeader(token),
        body: { name: 'sneaky', userId: owner.id, permissions: {} },
      });
      expect(res.status).to.equal(403);
      expect(await countRows(server.db.knex, 'api_keys', { account_id: owner.id })).to.equal(0);
    });
  });
});
