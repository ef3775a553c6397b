import { expect } from 'chai';
import { buildApiKey, permissionMap } from '../helpers/factories.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** API-key lookups are remembered per process and usage is counted in batches (server/platform/auth/apiKeyCredentials.ts). */
describe('API-key credential cache and usage counting', () => {
  const me = (server: TestServer, key: string) => server.request('GET', '/api/auth/me', { headers: { 'x-api-key': key } });
  const usage = async (server: TestServer, id: string) =>
    server.db.knex('api_keys').where('id', id).first<{ request_count: string | number; last_used_at: Date | null }>('request_count', 'last_used_at');

  describe('with a cache', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ config: { apiKeyCacheMs: 60_000, apiKeyUsageFlushMs: 60_000 } });
    });
    after(() => server.close());

    it('remembers an accepted key until an administration command invalidates it', async () => {
      const { key, apiKey } = await buildApiKey({ permissions: permissionMap('auth:read') });
      expect((await me(server, key)).status).to.equal(200);
      // A row edited behind the server's back is not seen while the key is remembered…
      await server.db.knex('api_keys').where('id', apiKey.id).update({ enabled: false });
      expect((await me(server, key)).status).to.equal(200);
      // …and is once something invalidates (every key and account administration command does).
      server.app.context.credentials.invalidate();
      expect((await me(server, key)).status).to.equal(401);
    });

    it('does not remember a lookup that was in flight when the cache was invalidated', async () => {
      const { key, apiKey } = await buildApiKey({ permissions: permissionMap('auth:read') });
      const credentials = server.app.context.credentials;
      // The lookup reads the row; meanwhile a command commits a change and invalidates. What the lookup read
      // may be the old state: it serves its own request but must not be remembered for the next ones.
      const inFlight = credentials.resolve(key);
      credentials.invalidate();
      expect(await inFlight).to.not.equal(undefined);
      await server.db.knex('api_keys').where('id', apiKey.id).update({ enabled: false });
      expect((await me(server, key)).status).to.equal(401);
    });

    it('forgets remembered keys only after an account change is committed', async () => {
      const { key, apiKey } = await buildApiKey({ permissions: permissionMap('auth:read') });
      expect((await me(server, key)).status).to.equal(200);
      const credentials = server.app.context.credentials;
      const order: string[] = [];
      const onQuery = (query: { sql: string }) => {
        if (/^\s*commit/i.test(query.sql)) order.push('commit');
      };
      const forget = credentials.forget;
      credentials.forget = function (this: typeof credentials, change) {
        order.push('invalidate');
        return forget.call(this, change);
      };
      server.db.knex.on('query', onQuery);
      try {
        const demoted = await server.request('PATCH', `/api/sudo/users/${apiKey.accountId}`, {
          headers: { 'x-api-token': server.config.superuserApiTokens[0] },
          body: { role: 'USER', password: 'a brand new password' },
        });
        expect(demoted.status).to.equal(200);
      } finally {
        server.db.knex.off('query', onQuery);
        credentials.forget = forget;
      }
      expect(order).to.deep.equal(['commit', 'invalidate']);
      expect((await me(server, key)).status).to.equal(401);
    });

    it('drops remembered keys when a key is disabled through the API', async () => {
      const { key, apiKey } = await buildApiKey({ permissions: permissionMap('auth:read') });
      expect((await me(server, key)).status).to.equal(200);
      const patched = await server.request('PATCH', `/api/sudo/api-keys/${apiKey.id}`, {
        headers: { 'x-api-token': server.config.superuserApiTokens[0] },
        body: { enabled: false },
      });
      expect(patched.status).to.equal(200);
      expect((await me(server, key)).status).to.equal(401);
    });

    it('answers a remembered key at once, without a database read, until it expires or is forgotten', async () => {
      // Expires in 30 s; the cache remembers for 60 s.
      const { key, apiKey } = await buildApiKey({ permissions: permissionMap('auth:read'), expiresAt: new Date(Date.now() + 30_000) });
      const credentials = server.app.context.credentials;
      const queries: string[] = [];
      const onQuery = (query: { sql: string }) => queries.push(query.sql);
      server.db.knex.on('query', onQuery);
      try {
        expect(credentials.resolveRemembered(key), 'not remembered before its first lookup').to.equal(undefined);
        const looked = await credentials.resolve(key);
        expect(looked).to.include({ role: 'superuser', authSource: 'api-key' });
        const readsAfterLookup = queries.length;
        expect(readsAfterLookup, 'the first lookup reads the key').to.be.greaterThan(0);
        // Synchronous (no promise), the same identity, and no further read.
        expect(credentials.resolveRemembered(key)).to.equal(looked);
        expect(queries.length).to.equal(readsAfterLookup);
        expect(credentials.resolveRemembered(`${key}x`), 'another key').to.equal(undefined);
      } finally {
        server.db.knex.off('query', onQuery);
      }
      // Counted as uses like any other: the lookup and the remembered answer.
      await credentials.flush();
      expect(Number((await usage(server, apiKey.id))!.request_count)).to.equal(2);

      // The key's own expiry holds for a remembered key too: 40 s on, the key has expired, its entry is still fresh.
      const realNow = credentials.now;
      credentials.now = () => realNow() + 40_000;
      try {
        expect(credentials.resolveRemembered(key)).to.equal(undefined);
        expect(await credentials.resolve(key)).to.equal(undefined);
      } finally {
        credentials.now = realNow;
      }
      expect(credentials.resolveRemembered(key)).to.not.equal(undefined);
      credentials.invalidate();
      expect(credentials.resolveRemembered(key), 'forgotten by invalidate').to.equal(undefined);
    });

    it('counts uses in memory and writes them as one update when flushed or closed', async () => {
      const { key, apiKey } = await buildApiKey({ permissions: permissionMap('auth:read') });
      for (let i = 0; i < 5; i++) expect((await me(server, key)).status).to.equal(200);
      expect(Number((await usage(server, apiKey.id))!.request_count), 'not written before the flush').to.equal(0);
      await server.app.context.credentials.flush();
      const written = (await usage(server, apiKey.id))!;
      expect(Number(written.request_count)).to.equal(5);
      expect(written.last_used_at).to.be.instanceOf(Date);

      expect((await me(server, key)).status).to.equal(200);
      await server.app.close();
      expect(Number((await usage(server, apiKey.id))!.request_count), 'written on close').to.equal(6);
    });
  });

  describe('without a cache (API_KEY_CACHE_MS=0)', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ config: { apiKeyCacheMs: 0 } });
    });
    after(() => server.close());

    it('looks the key up on every request', async () => {
      const { key, apiKey } = await buildApiKey({ permissions: permissionMap('auth:read') });
      expect((await me(server, key)).status).to.equal(200);
      await server.db.knex('api_keys').where('id', apiKey.id).update({ enabled: false });
      expect((await me(server, key)).status).to.equal(401);
    });
  });
});
