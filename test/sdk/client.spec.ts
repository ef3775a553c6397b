import { expect } from 'chai';
import { CookieJar } from 'tough-cookie';
import { ApiError, createClient, guestProfile, guestReservation, IDEMPOTENT_CREATES, isProblem, unwrap } from '../../sdk/index.ts';
import { contract } from '../helpers/contract.ts';
import { bookableEvent, contact } from '../modules/booking/factories.ts';
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
    const client = server.client({ cookies: new CookieJar() });
    const principal = unwrap(await client.POST('/api/auth/sign-in', { body: { identifier: 'jar@example.test', password: DEFAULT_PASSWORD } }));
    expect(principal.role).to.equal('admin');
    const session = () => client.cookies?.getCookiesSync(server.baseUrl).find((c) => c.key === 'venue_session');
    expect(session()?.value).to.be.a('string');
    expect(session()?.httpOnly).to.equal(true);

    const me = unwrap(await client.GET('/api/auth/me'));
    expect(me.authSource).to.equal('session');
    expect(me.account?.email).to.equal('jar@example.test');

    await client.POST('/api/auth/sign-out');
    expect(session()).to.equal(undefined);
    expect((await client.GET('/api/auth/me')).response.status).to.equal(401);

    // `cookies: true`: a jar of the client's own.
    const own = server.client({ cookies: true });
    unwrap(await own.POST('/api/auth/sign-in', { body: { identifier: 'jar@example.test', password: DEFAULT_PASSWORD } }));
    expect(unwrap(await own.GET('/api/auth/me')).authSource).to.equal('session');
    expect((await server.client().GET('/api/auth/me')).response.status).to.equal(401);
  });

  it('sends an API key as x-api-key', async () => {
    const { key } = await buildApiKey({ permissions: permissionMap('auth:read') });
    const me = unwrap(await server.client({ apiKey: key }).GET('/api/auth/me'));
    expect(me.authSource).to.equal('api-key');
    expect(me.permissions).to.deep.equal(['auth:read']);
  });

  it('asks a browser to send its own cookies for a dashboard (cookies: true → credentials: include), none cross-origin for a guest site', async () => {
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
      await createClient({ baseUrl: 'http://venue.test/', fetch: spy, cookies: true }).GET('/api/system/health/live');
      await createClient({ baseUrl: 'http://venue.test/', fetch: spy, credentials: 'omit' }).GET('/api/system/health/live');
      // A guest front end: the browser's default, no cookie to another origin.
      await createClient({ baseUrl: 'http://venue.test/', fetch: spy }).GET('/api/system/health/live');
    } finally {
      delete globals.window;
      delete globals.document;
    }
    await createClient({ baseUrl: 'http://venue.test', fetch: spy }).GET('/api/system/health/live');
    expect(seen.map((r) => r.credentials)).to.deep.equal(['include', 'omit', 'same-origin', 'same-origin']);
    expect(seen[0].url).to.equal('http://venue.test/api/system/health/live');
  });

  it('the Node jar honours Path, Expires and Secure (tough-cookie)', async () => {
    const jar = new CookieJar();
    const answers: Record<string, string[]> = {
      '/set': ['a=1; Path=/', 'scoped=2; Path=/admin', 'gone=3; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT', 'secure=4; Path=/; Secure'],
    };
    const sent: Record<string, string | null> = {};
    const peer: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname;
      sent[path] = request.headers.get('cookie');
      const headers = new Headers({ 'content-type': 'application/json' });
      for (const cookie of answers[path] ?? []) headers.append('set-cookie', cookie);
      // A real fetch's answer names the URL it came from (the jar scopes cookies by it).
      return Object.defineProperty(new Response('{}', { headers }), 'url', { value: request.url });
    };
    const client = createClient({ baseUrl: 'http://venue.test', fetch: peer, cookies: jar });
    await client.GET('/set' as never);
    await client.GET('/admin/x' as never);
    await client.GET('/public' as never);
    expect(sent['/admin/x']).to.equal('scoped=2; a=1');
    expect(sent['/public']).to.equal('a=1');
    expect(client.cookies).to.equal(jar);
  });

  it('sends an Idempotency-Key with every create that declares one, unless the call gives its own', async () => {
    const declared = contract.operations
      .filter((op) => op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'))
      .map((op) => `${op.method} ${op.path}`)
      .sort();
    expect(IDEMPOTENT_CREATES.map(({ method, path }) => `${method} ${path}`).sort()).to.deep.equal(declared);

    const seen: Request[] = [];
    const spy: typeof fetch = async (input, init) => {
      seen.push(new Request(input, init));
      return new Response('{}', { status: 201, headers: { 'content-type': 'application/json' } });
    };
    const client = createClient({ baseUrl: 'http://venue.test/base', fetch: spy });
    const body = { eventSlug: 'x', offerCode: 'y', guestCount: 2, contact: contact() };
    await client.POST('/api/public/reservations', { body });
    await client.POST('/api/public/reservations', { body });
    await client.POST('/api/public/reservations', { body, params: { header: { 'idempotency-key': 'mine-123' } } });
    await client.POST('/api/auth/sign-out');
    const keys = seen.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).to.match(/^[0-9a-f-]{36}$/);
    expect(keys[1]).to.match(/^[0-9a-f-]{36}$/).and.not.equal(keys[0]);
    expect(keys.slice(2)).to.deep.equal(['mine-123', null]);
  });

  it('binds a booking’s reference and token to the guest’s calls, and a profile token to the profile’s', async () => {
    const { event, offer } = await bookableEvent();
    const client = server.client();
    const key = 'retry-of-one-hold';
    const hold = unwrap(
      await client.POST('/api/public/reservations', {
        body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: contact() },
        params: { header: { 'idempotency-key': key } },
      }),
    );
    const replay = await client.POST('/api/public/reservations', {
      body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: contact() },
      params: { header: { 'idempotency-key': key } },
    });
    expect(replay.response.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.data?.reference).to.equal(hold.reference);

    const booking = guestReservation(client, { reference: hold.reference, token: hold.accessToken! });
    const mine = unwrap(await booking.get());
    expect(mine.reference).to.equal(hold.reference);
    expect(mine.status).to.equal('HELD');
    const options = unwrap(await booking.checkoutOptions());
    expect(options).to.be.an('object');
    const ticket = await booking.ticket('svg');
    expect(isProblem(ticket.error, 'no_ticket')).to.equal(true);

    const stranger = guestReservation(client, { reference: hold.reference, token: 'not-the-token' });
    const refused = await stranger.get();
    expect(refused.response.status).to.be.oneOf([401, 403, 404]);

    const cancelled = unwrap(await booking.cancel());
    expect(cancelled.status).to.equal('CANCELLED');
    expect(guestProfile(client, { token: 'x' })).to.have.keys(['get', 'update', 'react']);
  });
});
