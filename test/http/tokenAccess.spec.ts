import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { stringify } from 'yaml';
import { createApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/platform/config.ts';
import { securityFor, TOKEN_LEVELS } from '../../server/platform/http/access.ts';
import { ContractError, loadContract } from '../../server/platform/http/contract.ts';
import type { HandlerMap } from '../../server/platform/http/handler.ts';
import type { PolicyEntry } from '../../server/platform/http/policy.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { testDatabase } from '../helpers/database.ts';

/** A small bundled contract: one operation per token level, plus one staff operation. */
function fixtureDocument(overrides: (doc: any) => void = () => {}) {
  const problem = { $ref: '#/components/schemas/Problem' };
  const answer = (description: string) => ({ description, content: { 'application/problem+json': { schema: problem } } });
  const op = (operationId: string, access: string, extra: Record<string, unknown> = {}) => ({
    operationId,
    tags: ['probe'],
    'x-access': access,
    ...extra,
    security: securityFor({ access: access as never, apiKey: 'allow' }),
    responses: {
      '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', required: ['ok'], properties: { ok: { const: true } } } } } },
      '401': answer('no or wrong token'),
      '403': answer('wrong token / role'),
      '503': answer('not configured'),
    },
  });
  const doc: any = {
    openapi: '3.1.0',
    info: { title: 'token access probe', version: '1' },
    paths: {
      '/api/probe/service': { post: op('probeService', 'service-token') },
      '/api/probe/chat-webhook': { post: op('probeChatWebhook', 'chat-webhook-token') },
      '/api/probe/messaging-webhook': {
        get: op('probeMessagingVerify', 'messaging-verify-token', {
          parameters: [{ name: 'hub.verify_token', in: 'query', schema: { type: 'string', maxLength: 200 } }],
        }),
      },
      '/api/probe/staff': { get: op('probeStaff', 'staff', { 'x-permission': 'probe:read' }) },
    },
    components: {
      schemas: {
        Problem: { type: 'object', required: ['type', 'title', 'status', 'code', 'requestId'], properties: { code: { type: 'string' } } },
      },
    },
  };
  overrides(doc);
  return doc;
}

function writeContract(doc: unknown): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'contract-')), 'openapi.yaml');
  fs.writeFileSync(file, stringify(doc));
  return file;
}

const REGISTRY: PolicyEntry[] = [
  { path: '/api/probe/service', match: 'exact', level: 'public' },
  { path: '/api/probe/chat-webhook', match: 'exact', level: 'public' },
  { path: '/api/probe/messaging-webhook', match: 'exact', level: 'public' },
  { path: '/api/', match: 'prefix', level: 'staff' },
];

const ok = () => ({ status: 200, body: { ok: true } });
const HANDLERS: HandlerMap = { probeService: ok, probeChatWebhook: ok, probeMessagingVerify: ok, probeStaff: ok };

describe('token access levels (service, chat webhook, messaging verify)', () => {
  let app: App;
  let server: http.Server;
  let baseUrl: string;
  let handled = 0;

  async function start(tokens: Record<string, string | undefined>) {
    const db = await testDatabase();
    const config = { ...loadConfig({ NODE_ENV: 'test' }), accessTokens: tokens };
    const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));
    const counting: HandlerMap = Object.fromEntries(
      Object.entries(HANDLERS).map(([id, handler]) => [id, (call) => ((handled += 1), handler(call))]),
    );
    app = createApp({ config, db, logger, contract: loadContract(writeContract(fixtureDocument())), handlers: counting, registry: REGISTRY });
    server = http.createServer(app.koa.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async function stop() {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close();
  }

  const call = async (method: string, url: string, headers: Record<string, string> = {}) => {
    const response = await fetch(baseUrl + url, { method, headers });
    const body = (await response.json()) as Record<string, any>;
    return { status: response.status, body, type: response.headers.get('content-type') };
  };

  describe('with every token configured', () => {
    before(() => start({ 'service-token': 'svc-secret', 'chat-webhook-token': 'chat-secret', 'messaging-verify-token': 'verify-secret' }));
    after(stop);
    beforeEach(() => (handled = 0));

    const cases: Array<{ level: string; method: string; url: string; right: Record<string, string>; wrong: Record<string, string>; refusal: number; code: string }> = [
      { level: 'service-token', method: 'POST', url: '/api/probe/service', right: { 'x-service-token': 'svc-secret' }, wrong: { 'x-service-token': 'svc-secreT' }, refusal: 401, code: 'invalid_service_token' },
      { level: 'chat-webhook-token (header)', method: 'POST', url: '/api/probe/chat-webhook', right: { 'x-svc-chat-token': 'chat-secret' }, wrong: { 'x-svc-chat-token': 'chat-secret-and-more' }, refusal: 401, code: 'invalid_webhook_token' },
      { level: 'chat-webhook-token (bearer)', method: 'POST', url: '/api/probe/chat-webhook', right: { authorization: 'Bearer chat-secret' }, wrong: { authorization: 'Bearer svc-secret' }, refusal: 401, code: 'invalid_webhook_token' },
    ];
    for (const c of cases) {
      it(`${c.level}: right token → handled; wrong or missing → ${c.refusal} ${c.code}, handler never runs`, async () => {
        expect((await call(c.method, c.url, c.right)).status).to.equal(200);
        expect(handled).to.equal(1);
        for (const headers of [c.wrong, {}]) {
          const refused = await call(c.method, c.url, headers);
          expect(refused.status).to.equal(c.refusal);
          expect(refused.body.code).to.equal(c.code);
          expect(refused.type).to.match(/^application\/problem\+json/);
        }
        expect(handled).to.equal(1);
      });
    }

    it('messaging-verify-token: the hub.verify_token query value decides (403 on a mismatch, as the platform expects)', async () => {
      expect((await call('GET', '/api/probe/messaging-webhook?hub.verify_token=verify-secret')).status).to.equal(200);
      for (const query of ['?hub.verify_token=verify-secreT', '?hub.verify_token=', '']) {
        const refused = await call('GET', `/api/probe/messaging-webhook${query}`);
        expect(refused.status).to.equal(403);
        expect(refused.body.code).to.equal('invalid_verify_token');
      }
      expect(handled).to.equal(1);
    });

    it('a token of one level opens no other level, and no human route', async () => {
      expect((await call('POST', '/api/probe/service', { 'x-service-token': 'chat-secret' })).status).to.equal(401);
      expect((await call('POST', '/api/probe/chat-webhook', { 'x-svc-chat-token': 'svc-secret' })).status).to.equal(401);
      expect((await call('GET', '/api/probe/staff', { 'x-service-token': 'svc-secret', 'x-svc-chat-token': 'chat-secret' })).status).to.equal(401);
      expect(handled).to.equal(0);
    });
  });

  describe('with no token configured', () => {
    before(() => start({}));
    after(stop);

    it('answers 503 not_configured for every token level, whatever is presented: never open', async () => {
      for (const [method, url] of [['POST', '/api/probe/service'], ['POST', '/api/probe/chat-webhook'], ['GET', '/api/probe/messaging-webhook?hub.verify_token=']]) {
        const answer = await call(method, url, { 'x-service-token': '', 'x-svc-chat-token': 'anything', authorization: 'Bearer ' });
        expect(answer.status, url).to.equal(503);
        expect(answer.body.code).to.equal('not_configured');
      }
      expect(handled).to.equal(0);
    });
  });

  describe('boot checks of the contract', () => {
    it('refuses an operation whose security disagrees with its x-access', () => {
      const file = writeContract(
        fixtureDocument((doc) => {
          doc.paths['/api/probe/service'].post.security = [{ superuserToken: [] }];
          delete doc.paths['/api/probe/staff'].get.security;
        }),
      );
      expect(() => loadContract(file))
        .to.throw(ContractError)
        .with.property('problems')
        .that.deep.equals([
          'POST /api/probe/service: probeService: security [superuserToken] disagrees with x-access service-token, which admits [serviceToken]',
          'GET /api/probe/staff: probeStaff: no security declared (x-access staff admits apiKey, sessionCookie, superuserBearer, superuserToken)',
        ]);
    });

    it('refuses a contract that still refers to other files, instead of finding no operation', () => {
      const split = writeContract({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { '/api/x': { $ref: 'paths/x.yaml#/~1api~1x' } } });
      expect(() => loadContract(split)).to.throw(ContractError, /refers to other files \(paths\/x\.yaml#\/~1api~1x\)/);
      const empty = writeContract({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} });
      expect(() => loadContract(empty)).to.throw(ContractError, /declares no operation/);
    });

    it('declares a scheme for every token level in the real contract', () => {
      const real = loadContract();
      const schemes = Object.keys(real.document.components.securitySchemes);
      for (const level of TOKEN_LEVELS) {
        for (const requirement of securityFor({ access: level, apiKey: 'allow' })) expect(schemes).to.include.members(Object.keys(requirement));
      }
    });
  });
});
