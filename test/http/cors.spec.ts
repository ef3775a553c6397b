import { expect } from 'chai';
import type { HandlerMap } from '../../server/platform/http/handler.ts';
import { handlers as realHandlers } from '../../server/modules/index.ts';
import { contract } from '../helpers/contract.ts';
import { buildMemberSession } from '../helpers/factories.ts';
import { cookieHeader, startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';
import { SERVER_ONLY_PATHS } from '../../server/modules/chatNotifications/publicPolicy.ts';

/**
 * CORS (spec §5.6, issue 23 §1): the request Origin echoed, never a literal `*`; credentials only for the dashboard
 * origins (DASHBOARD_ORIGINS); the allowed and exposed headers derived from the contract; preflights answered.
 */

const throwing: HandlerMap = {
  ...realHandlers,
  getLiveness: () => {
    throw new Error('boom');
  },
};

function expectEchoed(res: TestResponse, origin: string, { credentials = false } = {}) {
  expect(res.headers.get('access-control-allow-origin'), `${res.status} ${res.text.slice(0, 200)}`).to.equal(origin);
  expect(res.headers.get('access-control-allow-credentials'), `credentials for ${origin}`).to.equal(credentials ? 'true' : null);
  expect(res.headers.get('vary') ?? '').to.match(/origin/i);
}

const DASHBOARD = 'https://dashboard.example';

function expectNoCors(res: TestResponse) {
  for (const name of ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-methods', 'access-control-allow-headers']) {
    expect(res.headers.get(name), name).to.equal(null);
  }
}

/** The header parameters and header credentials an operation declares (what a browser calling it may send). */
function declaredRequestHeaders(op: (typeof contract.operations)[number]): string[] {
  const schemes = contract.document.components.securitySchemes as Record<string, { type: string; in?: string; name?: string }>;
  const names = op.parameters.filter((p) => p.in === 'header').map((p) => p.name);
  for (const requirement of op.security ?? []) {
    for (const scheme of Object.keys(requirement).map((name) => schemes[name])) {
      if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name) names.push(scheme.name);
    }
  }
  if (op.requestBody) names.push('content-type');
  return [...new Set(names)];
}

/** Every response header the contract declares (resolving `$ref`s), but Set-Cookie, which no script may read. */
function declaredResponseHeaders(): string[] {
  const doc = contract.document;
  const resolve = (node: any): any => (node?.$ref ? resolve(node.$ref.slice(2).split('/').reduce((at: any, key: string) => at?.[key.replace(/~1/g, '/')], doc)) : node);
  const names = new Set<string>();
  const collect = (response: any) => Object.keys(resolve(response)?.headers ?? {}).forEach((name) => names.add(name.toLowerCase()));
  Object.values(doc.components.responses ?? {}).forEach(collect);
  for (const item of Object.values(doc.paths) as any[]) for (const op of Object.values(item) as any[]) Object.values(op?.responses ?? {}).forEach(collect);
  names.delete('set-cookie');
  return [...names];
}

const list = (value: string | null) => (value ?? '').split(',').map((v) => v.trim().toLowerCase()).filter(Boolean);

describe('CORS (spec §5.6)', () => {
  describe('default ALLOWED_ORIGIN (*)', () => {
    let server: TestServer;
    let failing: TestServer;
    before(async () => {
      server = await startTestServer();
      failing = await startTestServer({ handlers: throwing, keepData: true });
      expect(server.config.allowedOrigin).to.equal('*');
    });
    after(async () => {
      await Promise.all([server.close(), failing.close()]);
    });

    it('echoes whatever Origin comes, never a literal *, without credentials (no dashboard origin is listed)', async () => {
      expect(server.config.dashboardOrigins).to.deep.equal([]);
      for (const origin of ['https://dashboard.example', 'http://localhost:5173', 'https://partner.test']) {
        const res = await server.request('GET', '/api/system/health/live', { headers: { origin } });
        expect(res.status).to.equal(200);
        expectEchoed(res, origin);
        expect(res.headers.get('access-control-allow-origin')).to.not.equal('*');
      }
    });

    it('exposes every response header the contract declares, the request id and Allow to browser code', async () => {
      const res = await server.request('GET', '/api/system/health/live', { headers: { origin: 'https://dashboard.example' } });
      const exposed = list(res.headers.get('access-control-expose-headers'));
      expect(exposed).to.include.members(['x-request-id', 'allow', ...declaredResponseHeaders()]);
      expect(exposed).to.include.members(['etag', 'idempotent-replayed', 'retry-after', 'location', 'content-disposition', 'www-authenticate', 'deprecation', 'link']);
      expect(exposed).to.not.include('set-cookie');
    });

    it('a staff cookie sent from an unlisted origin gets an answer the browser will not hand to the page', async () => {
      const { token } = await buildMemberSession('admin');
      for (const origin of ['https://dashboard.example', 'https://other.venue.example', 'http://localhost:3000']) {
        const res = await server.request('GET', '/api/auth/me', { headers: { origin, ...cookieHeader(token) } });
        expectEchoed(res, origin, { credentials: false });
      }
    });

    it('sends no CORS headers when the request has no Origin, only Vary: Origin (for caches)', async () => {
      for (const url of ['/api/system/health/live', '/api/auth/me', '/api/no-such-thing']) {
        const res = await server.request('GET', url);
        expectNoCors(res);
        expect(list(res.headers.get('vary')), url).to.deep.equal(['origin']);
      }
    });

    it('answers a preflight with 204, the methods and the credential headers incl. x-api-key', async () => {
      const res = await server.request('OPTIONS', '/api/sudo/users', {
        headers: {
          origin: 'https://dashboard.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-api-key, content-type',
        },
      });
      expect(res.status).to.equal(204);
      expectEchoed(res, 'https://dashboard.example');
      expect(list(res.headers.get('access-control-allow-methods'))).to.include.members(['get', 'post', 'put', 'patch', 'delete']);
      expect(list(res.headers.get('access-control-allow-headers'))).to.include.members([
        'x-api-key',
        'x-api-token',
        'authorization',
        'content-type',
        'if-none-match',
        'x-request-id',
        'x-reservation-token',
        'x-profile-token',
        'idempotency-key',
      ]);
      expect(Number(res.headers.get('access-control-max-age'))).to.be.greaterThan(0);
      expect(res.text).to.equal('');
    });

    it('answers the preflight of every browser-callable operation with exactly the headers it declares', async () => {
      // Server-only routes (an internal notification) answer no preflight by design (chatNotifications spec), and the
      // operations only servers call (their own tokens) need none.
      const serverAccess = ['disabled', 'service-token', 'chat-webhook-token', 'messaging-verify-token'];
      const operations = contract.operations.filter((op) => !serverAccess.includes(op.access) && !SERVER_ONLY_PATHS.includes(op.path));
      expect(operations.length).to.be.greaterThan(150);
      for (const op of operations) {
        const url = op.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
        const requested = declaredRequestHeaders(op);
        const res = await server.request('OPTIONS', url, {
          headers: { origin: 'https://app.example', 'access-control-request-method': op.method, 'access-control-request-headers': requested.join(', ') },
        });
        expect(res.status, `${op.method} ${url}`).to.equal(204);
        expectEchoed(res, 'https://app.example');
        expect(list(res.headers.get('access-control-allow-methods')), op.operationId).to.include(op.method.toLowerCase());
        expect(list(res.headers.get('access-control-allow-headers')), op.operationId).to.include.members(requested.map((name) => name.toLowerCase()));
      }
    });

    it('allows no credential header only servers hold (the internal service token)', async () => {
      const res = await server.request('OPTIONS', '/api/auth/me', {
        headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
      });
      expect(list(res.headers.get('access-control-allow-headers'))).to.not.include('x-service-token');
    });

    it('keeps the CORS headers on error responses (401, 403, 404, 405, 400, 415, 500)', async () => {
      const origin = 'https://dashboard.example';
      const { token } = await buildMemberSession('member');
      const cases: Array<[TestServer, string, string, Record<string, unknown>, number]> = [
        [server, 'GET', '/api/auth/me', {}, 401],
        [server, 'GET', '/api/sudo/users', { headers: cookieHeader(token) }, 403],
        [server, 'GET', '/api/no-such-thing', {}, 404],
        [server, 'DELETE', '/api/auth/me', {}, 405],
        [server, 'POST', '/api/auth/sign-in', { rawBody: '{oops', headers: { 'content-type': 'application/json' } }, 400],
        [server, 'POST', '/api/auth/sign-in', { rawBody: 'x', headers: { 'content-type': 'text/plain' } }, 415],
        [failing, 'GET', '/api/system/health/live', {}, 500],
      ];
      for (const [target, method, url, options, status] of cases) {
        const res = await target.request(method, url, { ...options, headers: { ...(options.headers as object), origin } });
        expect(res.status, `${method} ${url}`).to.equal(status);
        expect(res.headers.get('content-type'), `${method} ${url}`).to.match(/^application\/problem\+json/);
        expectEchoed(res, origin);
      }
    });
  });

  describe('DASHBOARD_ORIGINS: credentials for the dashboard only', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ config: { dashboardOrigins: [DASHBOARD, 'http://localhost:5173'] } });
    });
    after(() => server.close());

    it('answers the listed dashboard origins with credentials, on answers and preflights', async () => {
      const { token } = await buildMemberSession('admin');
      for (const origin of [DASHBOARD, 'http://localhost:5173']) {
        const res = await server.request('GET', '/api/auth/me', { headers: { origin, ...cookieHeader(token) } });
        expect(res.status).to.equal(200);
        expectEchoed(res, origin, { credentials: true });
        const preflight = await server.request('OPTIONS', '/api/check-ins', {
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
        });
        expect(preflight.status).to.equal(204);
        expectEchoed(preflight, origin, { credentials: true });
      }
    });

    it('still echoes every other origin, without credentials (a sibling subdomain, another localhost port)', async () => {
      const { token } = await buildMemberSession('admin');
      for (const origin of ['https://evil.dashboard.example', 'https://dashboard.example.evil.test', 'http://localhost:5174', 'http://dashboard.example']) {
        const res = await server.request('GET', '/api/auth/me', { headers: { origin, ...cookieHeader(token) } });
        expectEchoed(res, origin, { credentials: false });
      }
    });

    it('keeps credentials on the dashboard origin’s error answers', async () => {
      const res = await server.request('GET', '/api/auth/me', { headers: { origin: DASHBOARD } });
      expect(res.status).to.equal(401);
      expectEchoed(res, DASHBOARD, { credentials: true });
    });

    it('answers the website chat without credentials, a dashboard origin included', async () => {
      const preflight = await server.request('OPTIONS', '/llm/chat', { headers: { origin: DASHBOARD, 'access-control-request-method': 'POST' } });
      expectEchoed(preflight, DASHBOARD, { credentials: false });
    });

    it('a dashboard origin is echoed even when ALLOWED_ORIGIN lists others only', async () => {
      const strict = await startTestServer({ config: { allowedOrigin: 'https://shop.test', dashboardOrigins: [DASHBOARD] }, keepData: true });
      try {
        expectEchoed(await strict.request('GET', '/api/system/health/live', { headers: { origin: DASHBOARD } }), DASHBOARD, { credentials: true });
        expectEchoed(await strict.request('GET', '/api/system/health/live', { headers: { origin: 'https://shop.test' } }), 'https://shop.test');
        expectNoCors(await strict.request('GET', '/api/system/health/live', { headers: { origin: 'https://else.test' } }));
      } finally {
        await strict.close();
      }
    });
  });

  describe('a configured allow-list', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ config: { allowedOrigin: 'https://a.test, https://c.test' } });
    });
    after(() => server.close());

    it('echoes only the listed origins', async () => {
      for (const origin of ['https://a.test', 'https://c.test']) {
        expectEchoed(await server.request('GET', '/api/system/health/live', { headers: { origin } }), origin);
      }
      for (const origin of ['https://b.test', 'https://a.test.evil.example', 'http://a.test', '*']) {
        const res = await server.request('GET', '/api/system/health/live', { headers: { origin } });
        expect(res.status).to.equal(200);
        expectNoCors(res);
      }
    });

    it('does not approve the preflight of an unlisted origin', async () => {
      const headers = { 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key' };
      const listed = await server.request('OPTIONS', '/api/sudo/users', { headers: { ...headers, origin: 'https://a.test' } });
      expect(listed.status).to.equal(204);
      expectEchoed(listed, 'https://a.test');
      const unlisted = await server.request('OPTIONS', '/api/sudo/users', { headers: { ...headers, origin: 'https://b.test' } });
      expectNoCors(unlisted);
    });

    it('keeps the headers of a listed origin on errors', async () => {
      const res = await server.request('GET', '/api/auth/me', { headers: { origin: 'https://a.test' } });
      expect(res.status).to.equal(401);
      expectEchoed(res, 'https://a.test');
    });

    it('keeps the website chat (/llm/chat) open to every site, without credentials, whatever the list says (spec §5.6; issue 32 §4)', async () => {
      for (const origin of ['https://b.test', 'https://partner-hotel.example', 'http://localhost:8080']) {
        const preflight = await server.request('OPTIONS', '/llm/chat', {
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
        });
        expect(preflight.status).to.equal(204);
        expectEchoed(preflight, origin, { credentials: false });
        // A refused body still carries the headers, so the widget can read why.
        const refused = await server.request('POST', '/llm/chat', { headers: { origin }, body: { messages: [] } });
        expect(refused.status).to.equal(400);
        expectEchoed(refused, origin, { credentials: false });
      }
      // Case and a trailing slash do not change the route, so they do not change its CORS either.
      const preflight = await server.request('OPTIONS', '/LLM/Chat/', { headers: { origin: 'https://b.test', 'access-control-request-method': 'POST' } });
      expectEchoed(preflight, 'https://b.test');
      // Without an Origin: a literal `*`.
      const question = { messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hello' }] }] };
      const bare = await server.request('POST', '/llm/chat', { body: question });
      expect(bare.status).to.equal(200);
      expect(bare.headers.get('access-control-allow-origin')).to.equal('*');
      // The rest of the API keeps the list.
      expectNoCors(await server.request('POST', '/api/ai/demo', { headers: { origin: 'https://b.test' }, body: { prompt: 'hello' } }));
    });
  });

  it('a single configured origin is an allow-list of one', async () => {
    const server = await startTestServer({ config: { allowedOrigin: 'https://a.test' } });
    try {
      expectEchoed(await server.request('GET', '/api/system/health/live', { headers: { origin: 'https://a.test' } }), 'https://a.test');
      expectNoCors(await server.request('GET', '/api/system/health/live', { headers: { origin: 'https://b.test' } }));
    } finally {
      await server.close();
    }
  });
});
