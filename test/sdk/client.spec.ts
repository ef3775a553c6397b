import { expect } from 'chai';
import { ApiError, CookieJar, createClient, unwrap } from '../../sdk/index.ts';
import { buildAccount, buildMemberSession, buildApiKey, DEFAULT_PASSWORD, buildMembership, permissionMap } from '../helpers/factories.ts';
import { cookieHeader, startTestServer, SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';

/** The typed SDK (sdk/index.ts) against the real server. */
describe('sdk client', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  async function expectApiError(promise: Promise<unknown>): Promise<ApiError> {
    try {
      await promise;
    } catch (err) {
      expect(err).to.be.instanceOf(ApiError);
      return err as ApiError;
    }
    throw new Error('expected an ApiError');
  }

  it('makes typed calls with a superuser token', async () => {
    const client = server.client({ superuserToken: SUPERUSER_TOKEN });
    const created = unwrap(await client.POST('/api/sudo/users', { body: { username: 'sdk-user', name: 'Sdk User', password: 'a long password' } }));
    expect(created.email).to.equal('sdk-user@venue.local');
    const page = unwrap(await client.GET('/api/sudo/users', { params: { query: { q: 'sdk-user', limit: 5 } } }));
    expect(page.total).to.equal(1);
    expect(page.limit).to.equal(5);
    const detail = unwrap(await client.GET('/api/sudo/users/{userId}', { params: { path: { userId: created.id } } }));
    expect(detail.memberships).to.deep.equal([]);
    expect(detail.id).to.equal(created.id);
  });

  it('returns { data, error } narrowed by status without throwing', async () => {
    const client = server.client({ superuserToken: SUPERUSER_TOKEN });
    const result = await client.GET('/api/sudo/users/{userId}', { params: { path: { userId: '00000000-0000-4000-8000-000000000000' } } });
    expect(result.data).to.equal(undefined);
    expect(result.response.status).to.equal(404);
    expect(result.error?.code).to.equal('not_found');
  });

  it('unwrap throws ApiError with status, code, title, detail and field errors on 400', async () => {
    const client = server.client({ superuserToken: SUPERUSER_TOKEN });
    const err = await expectApiError(
      client.POST('/api/sudo/users', { body: { email: 'not-an-email', name: '', password: 'short' } }).then(unwrap),
    );
    expect(err.status).to.equal(400);
    expect(err.code).to.equal('validation_failed');
    expect(err.title).to.equal('Invalid request');
    expect(err.detail).to.be.a('string');
    expect(err.errors.map((e) => e.path)).to.include.members(['body/email', 'body/name', 'body/password']);
    expect(err.requestId).to.be.a('string');
  });

  it('unwrap throws on 401, 403 and 404 with the server code', async () => {
    const anonymous = server.client();
    expect((await expectApiError(anonymous.GET('/api/auth/me').then(unwrap))).code).to.equal('unauthenticated');

    const { token } = await buildMemberSession('member');
    const staff = server.client({ headers: cookieHeader(token) });
    const forbidden = await expectApiError(staff.GET('/api/sudo/users').then(unwrap));
    expect([forbidden.status, forbidden.code]).to.deep.equal([403, 'insufficient_role']);

    const superuser = server.client({ superuserToken: SUPERUSER_TOKEN });
    const missing = await expectApiError(
      superuser.DELETE('/api/sudo/api-keys/{apiKeyId}', { params: { path: { apiKeyId: '00000000-0000-4000-8000-000000000000' } } }).then(unwrap),
    );
    expect([missing.status, missing.code]).to.deep.equal([404, 'not_found']);
  });

  it('keeps a dashboard session in a cookie jar from Node, and drops it on sign-out', async () => {
    const account = await buildAccount({ email: 'jar@example.test' });
    await buildMembership(account, 'admin');
    const client = server.client({ cookies: true });
    const principal = unwrap(await client.POST('/api/auth/sign-in', { body: { identifier: 'jar@example.test', password: DEFAULT_PASSWORD } }));
    expect(principal.role).to.equal('admin');
    expect(client.cookies?.get('venue_session')).to.be.a('string');

    const me = unwrap(await client.GET('/api/auth/me'));
    expect(me.authSource).to.equal('session');
    expect(me.account?.email).to.equal('jar@example.test');

    await client.POST('/api/auth/sign-out');
    expect(client.cookies?.get('venue_session')).to.equal(undefined);
    expect((await client.GET('/api/auth/me')).response.status).to.equal(401);
  });

  it('sends an API key as x-api-key', async () => {
    const { key } = await buildApiKey({ permissions: permissionMap('auth:read') });
    const me = unwrap(await server.client({ apiKey: key }).GET('/api/auth/me'));
    expect(me.authSource).to.equal('api-key');
    expect(me.permissions).to.deep.equal(['auth:read']);
  });

  it('asks a browser to send its own cookies (credentials: include)', async () => {
    const seen: Request[] = [];
    const spy: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      seen.push(request);
      return new Response(JSON.stringify({ status: 'live', uptimeSeconds: 1, version: 'x' }), { headers: { 'content-type': 'application/json' } });
    };
    const globals = globalThis as Record<string, unknown>;
    globals.window = {};
    globals.document = {};
    try {
      await createClient({ baseUrl: 'http://venue.test/', fetch: spy }).GET('/api/system/health/live');
    } finally {
      delete globals.window;
      delete globals.document;
    }
    await createClient({ baseUrl: 'http://venue.test', fetch: spy }).GET('/api/system/health/live');
    expect(seen.map((r) => r.credentials)).to.deep.equal(['include', 'same-origin']);
    expect(seen[0].url).to.equal('http://venue.test/api/system/health/live');
  });

  it('CookieJar forgets a cookie the server expires', () => {
    const jar = new CookieJar();
    jar.store(new Response(null, { headers: [['set-cookie', 'a=1; path=/; httponly'], ['set-cookie', 'b=2']] }));
    expect(jar.header()).to.equal('a=1; b=2');
    jar.store(new Response(null, { headers: [['set-cookie', 'a=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT']] }));
    jar.store(new Response(null, { headers: [['set-cookie', 'b=3; Max-Age=0']] }));
    expect(jar.header()).to.equal(undefined);
  });
});
