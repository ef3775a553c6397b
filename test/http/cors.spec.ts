import { expect } from 'chai';
import type { HandlerMap } from '../../server/platform/http/handler.ts';
import { handlers as realHandlers } from '../../server/modules/index.ts';
import { contract } from '../helpers/contract.ts';
import { buildMemberSession } from '../helpers/factories.ts';
import { cookieHeader, startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';
import { SERVER_ONLY_PATHS } from '../../server/modules/chatNotifications/policy.ts';

/** CORS (spec §5.6): the request Origin echoed with credentials, never a literal `*`; preflights answered. */

const throwing: HandlerMap = {
  ...realHandlers,
  getLiveness: () => {
    throw new Error('boom');
  },
};

function expectEchoed(res: TestResponse, origin: string) {
  expect(res.headers.get('access-control-allow-origin'), `${res.status} ${res.text.slice(0, 200)}`).to.equal(origin);
  expect(res.headers.get('access-control-allow-credentials')).to.equal('true');
  expect(res.headers.get('vary') ?? '').to.match(/origin/i);
}

function expectNoCors(res: TestResponse) {
  for (const name of ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-methods', 'access-control-allow-headers']) {
    expect(res.headers.get(name), name).to.equal(null);
  }
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

    it('echoes whatever Origin comes, never a literal *, with credentials allowed', async () => {
      for (const origin of ['https://dashboard.example', 'http://localhost:5173', 'https://partner.test']) {
        const res = await server.request('GET', '/api/system/health/live', { headers: { origin } });
        expect(res.status).to.equal(200);
        expectEchoed(res, origin);
        expect(res.headers.get('access-control-allow-origin')).to.not.equal('*');
      }
    });

    it('exposes the request id, Retry-After and Allow to browser code', async () => {
      const res = await server.request('GET', '/api/system/health/live', { headers: { origin: 'https://dashboard.example' } });
      expect(list(res.headers.get('access-control-expose-headers'))).to.include.members(['x-request-id', 'retry-after', 'allow']);
    });

    it('echoes the Origin on a credentialed dashboard request', async () => {
      const { token } = await buildMemberSession('admin');
      const res = await server.request('GET', '/api/auth/me', { headers: { origin: 'https://dashboard.example', ...cookieHeader(token) } });
      expect(res.status).to.equal(200);
      expectEchoed(res, 'https://dashboard.example');
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
      expect(list(res.headers.get('access-control-allow-headers'))).to.include.members(['x-api-key', 'x-api-token', 'authorization', 'content-type']);
      expect(Number(res.headers.get('access-control-max-age'))).to.be.greaterThan(0);
      expect(res.text).to.equal('');
    });

    it('answers the preflight of every operation in the contract without asking for credentials', async () => {
      // Server-only routes (an internal notification) answer no preflight by design (chatNotifications spec).
      const operations = contract.operations.filter((op) => op.access !== 'disabled' && !SERVER_ONLY_PATHS.includes(op.path));
      for (const op of operations) {
        const url = op.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
        const res = await server.request('OPTIONS', url, {
          headers: { origin: 'https://app.example', 'access-control-request-method': op.method, 'access-control-request-headers': 'x-api-key' },
        });
        expect(res.status, `${op.method} ${url}`).to.equal(204);
        expectEchoed(res, 'https://app.example');
        expect(list(res.headers.get('access-control-allow-methods')), op.operationId).to.include(op.method.toLowerCase());
      }
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
