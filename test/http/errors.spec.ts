import { expect } from 'chai';
import { json, type HandlerMap } from '../../server/platform/http/handler.ts';
import type { Operation } from '../../server/platform/http/contract.ts';
import { handlers as realHandlers } from '../../server/modules/index.ts';
import { contract } from '../helpers/contract.ts';
import { buildAccount, buildMembership, buildMemberSession, buildSession } from '../helpers/factories.ts';
import { invalidValue, isPlainString, plainStringField, sampleQuery, samplePath, takesJson, wrongTypeField } from '../helpers/identities.ts';
import { asSuperuser, cookieHeader, startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';
import { TOKEN_LEVELS, type TokenLevel } from '../../server/platform/http/access.ts';

/** Every token level configured; the admitted caller of a token-level operation presents its secret. */
const TOKENS = Object.fromEntries(TOKEN_LEVELS.map((level) => [level, `errors-${level}-secret`])) as Record<TokenLevel, string>;
const TOKEN_HEADERS: Partial<Record<string, Record<string, string>>> = {
  'service-token': { 'x-service-token': TOKENS['service-token'] },
  'chat-webhook-token': { 'x-svc-chat-token': TOKENS['chat-webhook-token'] },
};
/** The verify token travels in the query (`hub.verify_token`, the security scheme's parameter). */
const withAccessQuery = (op: Operation, url: string) =>
  op.access === 'messaging-verify-token' ? `${url}${url.includes('?') ? '&' : '?'}hub.verify_token=${TOKENS['messaging-verify-token']}` : url;

/**
 * Errors as application/problem+json (DESIGN.md, spec §7): the shape, 404/405, sanitizing per role for the
 * 404 handler and for unexpected errors, and bad input on every operation (400/413/415, never a 500).
 */

const operations = contract.operations.filter((op) => op.access !== 'disabled');
const bodyOperations = operations.filter(takesJson);
const LEAKED_SECRET = 'liveness-exploded-secret-detail';
const LEAKED_CAUSE = 'inner-cause-secret-detail';

/** Handlers that fail on purpose: an unexpected error with a cause, and a reply the contract does not allow. */
const failingHandlers: HandlerMap = {
  ...realHandlers,
  getLiveness: () => {
    throw new Error(`${LEAKED_SECRET}: the pool is gone`, { cause: new TypeError(`${LEAKED_CAUSE}: undefined is not a function`) });
  },
  getReadiness: () => json(200, { status: 'ready', database: { kind: 'mainframe', latencyMs: -1 } }),
};

function expectProblem(res: TestResponse, status: number, code: string) {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
  expect(res.body).to.include({ status, code, requestId: res.headers.get('x-request-id') });
  expect(res.body.type).to.be.a('string').and.match(new RegExp(`${code}$`));
  expect(res.body.title).to.be.a('string').and.not.equal('');
}

/** No debug block, no stack frame, no internal error name or message anywhere in the body. */
function expectSanitized(res: TestResponse) {
  expect(res.body).to.not.have.property('debug');
  expect(res.text).to.not.match(/\n\s+at /);
  expect(res.text).to.not.match(/\.ts:\d+/);
  expect(res.text).to.not.match(/"(name|stack|cause)"/);
  for (const leak of [LEAKED_SECRET, LEAKED_CAUSE, 'TypeError', 'Error:', 'Problem:']) expect(res.text).to.not.contain(leak);
}

describe('errors (problem+json, spec §7)', () => {
  let server: TestServer;
  let failing: TestServer;
  let small: TestServer;
  const callers: Record<string, Record<string, string>> = {};
  /** Headers of a caller every operation admits, so requests reach parsing and validation. */
  const admitted = (op: Operation) => (op.access === 'session' ? callers.owner : (TOKEN_HEADERS[op.access] ?? asSuperuser));

  before(async () => {
    server = await startTestServer({ config: { accessTokens: TOKENS } });
    failing = await startTestServer({ handlers: failingHandlers, keepData: true });
    small = await startTestServer({ config: { jsonBodyLimitBytes: 1024, accessTokens: TOKENS }, keepData: true });
    callers.anonymous = {};
    const lonely = await buildAccount({ role: 'SUPERUSER' });
    await buildMembership(lonely, 'owner');
    callers['session without membership'] = cookieHeader(await buildSession(lonely, null));
    callers.staff = cookieHeader((await buildMemberSession('member')).token);
    callers.admin = cookieHeader((await buildMemberSession('admin')).token);
    callers.owner = cookieHeader((await buildMemberSession('owner')).token);
    callers['superuser token'] = asSuperuser;
  });
  after(async () => {
    await Promise.all([server.close(), failing.close(), small.close()]);
  });

  const PUBLIC = ['anonymous', 'session without membership'];
  const PRIVILEGED = ['staff', 'admin', 'owner', 'superuser token'];

  it('has the problem+json shape with a stable code and the request id', async () => {
    const res = await server.request('GET', '/api/auth/me', { headers: { 'x-request-id': 'errors-shape-1' } });
    expectProblem(res, 401, 'unauthenticated');
    expect(res.body.requestId).to.equal('errors-shape-1');
    expect(res.body.detail).to.be.a('string');
    expect(Object.keys(res.body).sort()).to.deep.equal(['code', 'detail', 'requestId', 'status', 'title', 'type']);
  });

  describe('404 and 405', () => {
    it('answers an unknown path with 404 not_found', async () => {
      for (const url of ['/api/no-such-thing', '/nothing-here', '/api/sudo/users/a/b/c']) {
        expectProblem(await server.request('GET', url), 404, 'not_found');
      }
    });

    // For each path of the contract, a concrete URL and the methods of every operation whose path matches it
    // (`/api/sudo/api-keys/permissions` also matches `/api/sudo/api-keys/{apiKeyId}`).
    const pattern = (route: string) => new RegExp(`^${route.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const route of new Set(operations.map((op) => op.path))) {
      const url = route.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const methods = [...new Set(operations.filter((op) => pattern(op.path).test(url)).map((op) => op.method))];
      const wrong = ['DELETE', 'PUT', 'PATCH', 'POST', 'GET'].find((m) => !methods.includes(m));
      if (!wrong) continue;
      it(`answers ${wrong} ${url} with 405 and Allow: ${methods.join(', ')}`, async () => {
        const res = await server.request(wrong, url, { headers: asSuperuser });
        expectProblem(res, 405, 'method_not_allowed');
        const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim());
        expect(allow).to.include.members(methods);
        expect(allow).to.not.include(wrong);
      });
    }
  });

  describe('sanitizing per caller role', () => {
    for (const name of PUBLIC) {
      it(`gives the ${name} caller a sanitized 404`, async () => {
        const res = await server.request('GET', '/api/no-such-thing', { headers: callers[name] });
        expectProblem(res, 404, 'not_found');
        expectSanitized(res);
      });

      it(`gives the ${name} caller a sanitized 500 for an unexpected error`, async () => {
        const res = await failing.request('GET', '/api/system/health/live', { headers: callers[name] });
        expectProblem(res, 500, 'internal_error');
        expectSanitized(res);
      });
    }

    for (const name of PRIVILEGED) {
      it(`gives the ${name} caller the full details of a 404`, async () => {
        const res = await server.request('GET', '/api/no-such-thing', { headers: callers[name] });
        expectProblem(res, 404, 'not_found');
        expect(res.body.debug).to.include({ name: 'Problem' });
        expect(res.body.debug.stack).to.be.a('string').and.match(/\n\s+at /);
      });

      it(`gives the ${name} caller the name, message, stack and cause chain of an unexpected error`, async () => {
        const res = await failing.request('GET', '/api/system/health/live', { headers: callers[name] });
        expectProblem(res, 500, 'internal_error');
        expect(res.body.debug.name).to.equal('Error');
        expect(res.body.debug.message).to.contain(LEAKED_SECRET);
        expect(res.body.debug.stack).to.contain(LEAKED_SECRET).and.match(/\n\s+at /);
        expect(res.body.debug.cause).to.have.length(1);
        expect(res.body.debug.cause[0]).to.include({ name: 'TypeError' });
        expect(res.body.debug.cause[0].message).to.contain(LEAKED_CAUSE);
      });
    }

    it('logs an unexpected error with its request id, whoever the caller', async () => {
      failing.logs.length = 0;
      await failing.request('GET', '/api/system/health/live', { headers: { 'x-request-id': 'errors-log-1' } });
      const line = failing.logs.find((l) => l.level === 'error' && l.requestId === 'errors-log-1');
      expect(line, JSON.stringify(failing.logs)).to.not.equal(undefined);
      expect(line!.err.message).to.contain(LEAKED_SECRET);
    });
  });

  describe('response validation', () => {
    it('fails loudly with 500 internal_error when a handler replies what the contract does not allow', async () => {
      const res = await failing.request('GET', '/api/system/health/ready', { headers: asSuperuser, unchecked: true });
      expectProblem(res, 500, 'internal_error');
      expect(res.body.debug.message).to.contain('Response does not match openapi.yaml').and.contain('getReadiness');
    });
  });

  describe('bad bodies on every operation that takes one', () => {
    it('finds operations with JSON bodies in the contract', () => {
      expect(bodyOperations.length).to.be.greaterThan(3);
    });

    for (const op of bodyOperations) {
      const url = samplePath(op) + sampleQuery(op);
      describe(`${op.operationId} (${op.method} ${op.path})`, () => {
        it('answers malformed JSON with 400 malformed_body', async () => {
          for (const rawBody of ['{"broken": ', '{name: 1}', 'null', '"just a string"', '\u0000']) {
            const res = await server.request(op.method, url, { rawBody, headers: { ...admitted(op), 'content-type': 'application/json' } });
            expectProblem(res, 400, 'malformed_body');
          }
        });

        it('answers a body over the limit with 413 payload_too_large', async () => {
          const res = await small.request(op.method, url, { body: { padding: 'x'.repeat(2048) }, headers: admitted(op) });
          expectProblem(res, 413, 'payload_too_large');
        });

        it('answers another content type with 415 unsupported_media_type', async () => {
          for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
            const res = await server.request(op.method, url, { rawBody: 'a=1', headers: { ...admitted(op), 'content-type': type } });
            expectProblem(res, 415, 'unsupported_media_type');
          }
        });

        it('answers a missing or non-object body with 400 validation_failed', async () => {
          if (op.requestBody?.required) {
            const missing = await server.request(op.method, url, { headers: admitted(op) });
            expectProblem(missing, 400, 'validation_failed');
            expect(missing.body.errors.map((e: { path: string }) => e.path)).to.include('body');
          }
          const array = await server.request(op.method, url, { body: [], headers: admitted(op) });
          expectProblem(array, 400, 'validation_failed');
        });

        const wrong = wrongTypeField(op);
        if (wrong) {
          it(`answers a wrong type for ${wrong.field} with 400 naming body/${wrong.field}`, async () => {
            const res = await server.request(op.method, url, { body: { [wrong.field]: wrong.value }, headers: admitted(op) });
            expectProblem(res, 400, 'validation_failed');
            const failing = res.body.errors.filter((e: { path: string }) => e.path === `body/${wrong.field}`);
            expect(failing, JSON.stringify(res.body.errors)).to.have.length.greaterThan(0);
            for (const error of res.body.errors) expect(error).to.have.all.keys('path', 'message', 'code');
          });
        }

        const text = plainStringField(op);
        if (text) {
          it(`answers a NUL character in ${text} with 400 naming body/${text}, not a database error`, async () => {
            const res = await server.request(op.method, url, { body: { [text]: 'a\u0000b' }, headers: admitted(op) });
            expectProblem(res, 400, 'validation_failed');
            expect(res.body.errors.map((e: { path: string }) => e.path), JSON.stringify(res.body.errors)).to.include(`body/${text}`);
          });
        }
      });
    }
  });

  describe('bad parameters on every operation that takes them', () => {
    const cases = operations.flatMap((op) =>
      op.parameters
        .filter((param) => param.in !== 'cookie')
        .map((param) => ({ op, param, invalid: invalidValue(param.schema) }))
        .filter((c): c is typeof c & { invalid: string } => c.invalid !== undefined),
    );

    it('finds path and query parameters to spoil in the contract', () => {
      expect(cases.some((c) => c.param.in === 'path')).to.equal(true);
      expect(cases.some((c) => c.param.in === 'query')).to.equal(true);
    });

    for (const { op, param, invalid } of cases) {
      const field = `${param.in === 'header' ? 'header' : param.in}/${param.name}`;
      it(`${op.operationId}: an invalid ${field} is a 400 naming it`, async () => {
        const url =
          param.in === 'path'
            ? samplePath(op, { [param.name]: invalid }) + sampleQuery(op)
            : samplePath(op) + sampleQuery(op, param.in === 'query' ? { [param.name]: invalid } : {});
        const headers = { ...admitted(op), ...(param.in === 'header' ? { [param.name]: invalid } : {}) };
        const res = await server.request(op.method, withAccessQuery(op, url), { headers, body: takesJson(op) ? {} : undefined });
        expectProblem(res, 400, 'validation_failed');
        expect(res.body.errors.map((e: { path: string }) => e.path), JSON.stringify(res.body.errors)).to.include(field);
      });
    }

    for (const op of operations) {
      for (const param of op.parameters.filter((p) => (p.in === 'query' || p.in === 'header') && isPlainString(p.schema))) {
        it(`${op.operationId}: a NUL character in ${param.in}/${param.name} is a 400 naming it, not a database error`, async () => {
          const url = samplePath(op) + (param.in === 'query' ? `${sampleQuery(op) ? `${sampleQuery(op)}&` : '?'}${param.name}=a%00b` : sampleQuery(op));
          const res = await server.request(op.method, withAccessQuery(op, url), { headers: admitted(op), body: takesJson(op) ? {} : undefined });
          expectProblem(res, 400, 'validation_failed');
          expect(res.body.errors.map((e: { path: string }) => e.path)).to.include(`${param.in}/${param.name}`);
        });
      }
    }

    it('treats a repeated scalar query parameter as bad input, not a crash', async () => {
      const res = await server.request('GET', '/api/sudo/users?limit=1&limit=2', { headers: asSuperuser });
      expectProblem(res, 400, 'validation_failed');
      expect(res.body.errors.map((e: { path: string }) => e.path)).to.include('query/limit');
    });
  });
});
