import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { MAX_BODY_DEPTH } from '../../server/platform/http/validation.ts';
import { WWW_AUTHENTICATE } from '../../server/platform/http/problem.ts';
import { buildAccount } from '../helpers/factories.ts';
import { asSuperuser, startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';

/**
 * Inputs an adversarial probe turned into 500s (or empty answers): deeply nested JSON, `urn:uuid:` ids,
 * date-times JavaScript cannot parse, requests Node's HTTP parser refuses; and the WWW-Authenticate challenge.
 */

function expectProblem(res: TestResponse, status: number, code?: string) {
  expect(res.status, res.text.slice(0, 500)).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
  if (code) expect(res.body.code, res.text.slice(0, 500)).to.equal(code);
}

const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Sends raw bytes and reads everything the server answers until it closes the connection. */
function rawExchange(baseUrl: string, payload: string | Buffer): Promise<string> {
  const { port, hostname } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', (err) => (chunks.length ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(err)));
    socket.setTimeout(5000, () => {
      socket.destroy();
      reject(new Error('no answer within 5 s'));
    });
    socket.write(payload);
  });
}

function parseRaw(text: string) {
  const [head, body] = text.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), statusLine, headers, body: JSON.parse(body) };
}

describe('hardening against malformed input', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  describe('deeply nested JSON', () => {
    for (const [name, make] of [['arrays', nestedArrays], ['objects', nestedObjects]] as const) {
      it(`answers ${name} nested 5000 levels deep with 400 body_too_deep (anonymous sign-in)`, async () => {
        const res = await server.request('POST', '/api/auth/sign-in', { rawBody: make(5000), headers: { 'content-type': 'application/json' } });
        expectProblem(res, 400, 'body_too_deep');
      });

      it(`answers ${name} nested 100 000 levels deep with 400 on a superuser route`, async () => {
        const res = await server.request('POST', '/api/sudo/users', { rawBody: make(100_000), headers: { ...asSuperuser, 'content-type': 'application/json' } });
        expectProblem(res, 400, 'body_too_deep');
        expect(res.body).to.not.have.property('errors');
      });
    }

    it(`accepts ${MAX_BODY_DEPTH} levels and refuses ${MAX_BODY_DEPTH + 1}`, async () => {
      // The body itself is level 1: `identifier` nested MAX - 1 levels further down is still within the limit.
      const within = await server.request('POST', '/api/auth/sign-in', { rawBody: `{"identifier":${nestedArrays(MAX_BODY_DEPTH - 1)}}`, headers: { 'content-type': 'application/json' } });
      expectProblem(within, 400, 'validation_failed');
      const beyond = await server.request('POST', '/api/auth/sign-in', { rawBody: `{"identifier":${nestedArrays(MAX_BODY_DEPTH)}}`, headers: { 'content-type': 'application/json' } });
      expectProblem(beyond, 400, 'body_too_deep');
    });
  });

  describe('UUIDs are the canonical 36-character form', () => {
    const id = randomUUID();
    for (const odd of [`urn:uuid:${id}`, `{${id}}`, id.replace(/-/g, ''), `${id}0`]) {
      it(`refuses ${odd} in a path with 400`, async () => {
        const res = await server.request('GET', `/api/sudo/users/${encodeURIComponent(odd)}`, { headers: asSuperuser });
        expectProblem(res, 400, 'validation_failed');
        expect(res.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['path/userId']);
      });
    }

    it('refuses urn:uuid: in a query parameter and in a body field with 400', async () => {
      const query = await server.request('GET', `/api/sudo/api-keys?userId=urn:uuid:${id}`, { headers: asSuperuser });
      expectProblem(query, 400, 'validation_failed');
      const body = await server.request('POST', '/api/sudo/api-keys', { headers: asSuperuser, body: { name: 'k', userId: `urn:uuid:${id}`, permissions: {} } });
      expectProblem(body, 400, 'validation_failed');
      expect(body.body.errors.map((e: { path: string }) => e.path)).to.include('body/userId');
    });

    it('still takes an upper-case canonical UUID', async () => {
      const res = await server.request('GET', `/api/sudo/users/${id.toUpperCase()}`, { headers: asSuperuser });
      expectProblem(res, 404, 'not_found');
    });
  });

  describe('date-times JavaScript cannot parse', () => {
    const unparsable = ['2099-01-01T23:59:60Z', '2099-01-01T00:00:00+00', '9999-12-31T23:59:59-05:00', '0000-06-01T00:00:00Z'];
    for (const value of unparsable) {
      it(`refuses expiresAt ${value} with 400, not a 500`, async () => {
        const owner = await buildAccount({ role: 'SUPERUSER' });
        const res = await server.request('POST', '/api/sudo/api-keys', { headers: asSuperuser, body: { name: 'k', userId: owner.id, permissions: {}, expiresAt: value } });
        expectProblem(res, 400, 'validation_failed');
        expect(res.body.errors.map((e: { path: string }) => e.path)).to.include('body/expiresAt');
      });

      it(`refuses banExpiresAt ${value} with 400, not a 500`, async () => {
        const account = await buildAccount();
        const res = await server.request('PATCH', `/api/sudo/users/${account.id}`, { headers: asSuperuser, body: { banned: true, banExpiresAt: value } });
        expectProblem(res, 400, 'validation_failed');
        expect(res.body.errors.map((e: { path: string }) => e.path)).to.include('body/banExpiresAt');
      });
    }

    it('still takes an offset date-time in the future', async () => {
      const account = await buildAccount();
      const res = await server.request('PATCH', `/api/sudo/users/${account.id}`, { headers: asSuperuser, body: { banned: true, banExpiresAt: '2099-01-01T01:00:00+01:00' } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.banExpiresAt).to.equal('2099-01-01T00:00:00.000Z');
    });
  });

  describe('requests the HTTP parser refuses', () => {
    const cases: Array<[string, string, number, string]> = [
      ['obsolete header folding', 'GET /api/system/health/live HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n b\r\n\r\n', 400, 'bad_request'],
      ['a bad Content-Length', 'POST /api/auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400, 'bad_request'],
      ['two different Content-Lengths', 'POST /api/auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab', 400, 'bad_request'],
      ['a malformed request line', 'GET\x00 / HTTP/1.1\r\n\r\n', 400, 'bad_request'],
      ['oversized headers', `GET /api/system/health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'header_too_large'],
    ];
    for (const [name, payload, status, code] of cases) {
      it(`answers ${name} with ${status} ${code} as problem+json and closes the connection`, async () => {
        const res = parseRaw(await rawExchange(server.baseUrl, payload));
        expect(res.status, res.statusLine).to.equal(status);
        expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
        expect(res.headers.connection).to.equal('close');
        expect(res.body).to.include({ status, code });
        expect(res.body.requestId).to.be.a('string').and.equal(res.headers['x-request-id']);
        expect(res.body).to.not.have.property('debug');
      });
    }
  });

  describe('401 answers carry WWW-Authenticate', () => {
    it('on a guarded route without a credential, naming the accepted schemes', async () => {
      const res = await server.request('GET', '/api/auth/me');
      expectProblem(res, 401, 'unauthenticated');
      expect(res.headers.get('www-authenticate')).to.equal(WWW_AUTHENTICATE);
      expect(WWW_AUTHENTICATE).to.match(/\bBearer realm="venue"/).and.match(/x-api-key/).and.match(/venue_session/);
    });

    it('on a failed sign-in', async () => {
      const res = await server.request('POST', '/api/auth/sign-in', { body: { identifier: 'nobody@example.test', password: 'nope' } });
      expectProblem(res, 401, 'invalid_credentials');
      expect(res.headers.get('www-authenticate')).to.equal(WWW_AUTHENTICATE);
    });

    it('and nothing else does', async () => {
      const res = await server.request('GET', '/api/sudo/users/not-a-uuid', { headers: asSuperuser });
      expect(res.status).to.equal(400);
      expect(res.headers.get('www-authenticate')).to.equal(null);
    });
  });
});
