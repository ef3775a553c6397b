import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createApp } from '../../server/app.ts';
import { loadConfig, type PolicyMode } from '../../server/platform/config.ts';
import { ContractError, CONTRACT_PATH, loadContract, type Contract, type Operation } from '../../server/platform/http/contract.ts';
import type { HandlerMap } from '../../server/platform/http/handler.ts';
import { checkPolicyRegistry, type PolicyEntry } from '../../server/platform/http/policy.ts';
import { POLICY_REGISTRY } from '../../server/modules/index.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { handlers as realHandlers } from '../../server/modules/index.ts';
import { contract } from '../helpers/contract.ts';
import { testDatabase } from '../helpers/database.ts';
import { buildAccount, buildMemberSession, buildSession } from '../helpers/factories.ts';
import { asSuperuser, cookieHeader, startTestServer, type TestServer } from '../helpers/server.ts';

const POLICY_LOG = '[public-api-policy]';
const policyLines = (server: TestServer) => server.logs.filter((line) => String(line.msg).includes(POLICY_LOG));

/** The real registry with one entry replaced (by path and match) or added. */
function withEntry(entry: PolicyEntry, registry: PolicyEntry[] = POLICY_REGISTRY): PolicyEntry[] {
  return [...registry.filter((e) => !(e.path === entry.path && e.match === entry.match)), entry];
}
const without = (pathName: string) => POLICY_REGISTRY.filter((e) => e.path !== pathName);

describe('public API policy (spec §5.5)', () => {
  describe('checkPolicyRegistry', () => {
    it('finds nothing wrong with the real registry and contract', () => {
      expect(checkPolicyRegistry(contract, POLICY_REGISTRY)).to.deep.equal([]);
    });

    for (const broad of ['/api/', '/api/auth/', '/', '/api/system/health']) {
      it(`flags ${broad} as a public prefix that is too broad`, () => {
        const problems = checkPolicyRegistry(contract, withEntry({ path: broad, match: 'prefix', level: 'public' }));
        expect(problems.some((p) => p.startsWith(`public prefix ${broad} is too broad`)), problems.join('\n')).to.equal(true);
      });
    }

    it('flags a long public prefix that swallows guarded operations', () => {
      const problems = checkPolicyRegistry(contract, withEntry({ path: '/api/sudo/users/', match: 'prefix', level: 'public' }));
      for (const id of ['getUser', 'updateUser', 'deleteUser']) {
        expect(problems.some((p) => p.startsWith(`${id} `) && p.includes('public policy entry /api/sudo/users/')), `${id}\n${problems.join('\n')}`).to.equal(true);
      }
    });

    it('flags an exact public entry on a guarded operation', () => {
      const problems = checkPolicyRegistry(contract, withEntry({ path: '/api/auth/me', match: 'exact', level: 'public' }));
      expect(problems.some((p) => p.startsWith('getCurrentPrincipal '))).to.equal(true);
    });

    it('flags a public operation that no public entry covers (entry removed)', () => {
      const problems = checkPolicyRegistry(contract, without('/api/auth/sign-in'));
      expect(problems).to.deep.equal([
        'signIn (POST /api/auth/sign-in) is public but no explicit public policy entry covers it',
      ]);
    });

    it('flags a public operation that no public entry covers (operation added to the contract)', () => {
      const template = contract.operations.find((op) => op.operationId === 'getLiveness')!;
      const added: Operation = { ...template, operationId: 'listShows', path: '/api/venue/shows', tags: ['venue'] };
      const modified: Contract = { ...contract, operations: [...contract.operations, added] };
      expect(checkPolicyRegistry(modified, POLICY_REGISTRY)).to.deep.equal([
        'listShows (GET /api/venue/shows) is public but no explicit public policy entry covers it',
      ]);
      // Covered by a narrow explicit entry, it is fine.
      expect(checkPolicyRegistry(modified, withEntry({ path: '/api/venue/shows', match: 'exact', methods: ['GET'], level: 'public' }))).to.deep.equal([]);
    });

    it('only lets an entry cover the methods it names', () => {
      const problems = checkPolicyRegistry(contract, withEntry({ path: '/api/auth/sign-in', match: 'exact', methods: ['GET'], level: 'public' }));
      expect(problems.some((p) => p.startsWith('signIn '))).to.equal(true);
    });

    it('flags an entry that demands more than the operation admits', () => {
      const problems = checkPolicyRegistry(contract, withEntry({ path: '/api/auth/me', match: 'exact', level: 'superuser' }));
      expect(problems).to.deep.equal([
        'getCurrentPrincipal (GET /api/auth/me) admits staff but the policy entry /api/auth/me demands superuser',
      ]);
    });
  });

  describe('modes', () => {
    // The real registry plus its own narrow entry for one route: the log line names the entry that decided,
    // which shows the registry handed to the app is the one consulted. It demands exactly what the contract
    // does (createApp refuses more), so `enforce` blocks callers the access check would refuse too, but with
    // the policy's own answer (`policy_blocked`) and before the handler's access check runs.
    const ROUTE = '/api/sudo/organizations';
    const registry = withEntry({ path: ROUTE, match: 'exact', methods: ['GET'], level: 'superuser' });
    const servers = new Map<PolicyMode, TestServer>();
    let admin: Record<string, string>;
    let noMembership: Record<string, string>;

    before(async () => {
      servers.set('report', await startTestServer({ config: { publicApiPolicyMode: 'report' }, registry }));
      servers.set('enforce', await startTestServer({ config: { publicApiPolicyMode: 'enforce' }, registry, keepData: true }));
      servers.set('off', await startTestServer({ config: { publicApiPolicyMode: 'off' }, registry, keepData: true }));
      admin = cookieHeader((await buildMemberSession('admin')).token);
      noMembership = cookieHeader(await buildSession(await buildAccount({ role: 'SUPERUSER' }), null));
    });
    after(async () => {
      for (const server of servers.values()) await server.close();
    });
    beforeEach(() => {
      for (const server of servers.values()) server.logs.length = 0;
    });

    it('enforce: blocks a role below the entry with 403 policy_blocked and logs it', async () => {
      const server = servers.get('enforce')!;
      const res = await server.request('GET', ROUTE, { headers: { ...admin, 'x-request-id': 'policy-enforce-1' } });
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('policy_blocked');
      const lines = policyLines(server);
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include({ level: 'warn', method: 'GET', path: ROUTE, role: 'admin', required: 'superuser', policy: ROUTE, mode: 'enforce', requestId: 'policy-enforce-1' });
      expect(lines[0].msg).to.equal(`${POLICY_LOG} GET ${ROUTE} by admin needs superuser (${ROUTE})`);
    });

    it('enforce: answers 401 for a public caller, no_active_membership for a session without membership', async () => {
      const server = servers.get('enforce')!;
      const anonymous = await server.request('GET', ROUTE);
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body.code).to.equal('unauthenticated');
      const session = await server.request('GET', ROUTE, { headers: noMembership });
      expect(session.status).to.equal(401);
      expect(session.body.code).to.equal('no_active_membership');
      expect(policyLines(server).map((l) => l.role)).to.deep.equal(['public', 'public']);
    });

    it('report: logs the violation while the request gets the access check’s own answer', async () => {
      const server = servers.get('report')!;
      const res = await server.request('GET', ROUTE, { headers: admin });
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('insufficient_role');
      const lines = policyLines(server);
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include({ method: 'GET', path: ROUTE, role: 'admin', required: 'superuser', policy: ROUTE, mode: 'report' });
      const anonymous = await server.request('GET', ROUTE);
      expect(anonymous.status).to.equal(401);
      expect(policyLines(server)).to.have.length(2);
    });

    it('off: no policy log line; the access check still answers', async () => {
      const server = servers.get('off')!;
      const res = await server.request('GET', ROUTE, { headers: admin });
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('insufficient_role');
      expect((await server.request('GET', ROUTE)).status).to.equal(401);
      expect(policyLines(server)).to.deep.equal([]);
      // The request line is there, so the sink works and the absence above means something.
      expect(server.logs.some((l) => l.msg === 'request' && l.path === ROUTE && l.status === 403)).to.equal(true);
    });

    it('no mode logs or blocks a caller the entry admits, nor a public operation', async () => {
      for (const [mode, server] of servers) {
        const res = await server.request('GET', ROUTE, { headers: asSuperuser });
        expect(res.status, mode).to.equal(200);
        expect((await server.request('GET', '/api/system/health/live')).status, mode).to.equal(200);
        expect((await server.request('GET', '/openapi.yaml')).status, mode).to.equal(200);
        expect(policyLines(server), mode).to.deep.equal([]);
      }
    });

    it('enforce judges the operation the router matched, whatever the case, trailing slash or HEAD', async () => {
      const server = servers.get('enforce')!;
      for (const [method, url] of [
        ['GET', '/API/SYSTEM/HEALTH/LIVE'],
        ['GET', '/api/system/health/live/'],
        ['GET', '/OpenAPI.yaml'],
        ['HEAD', '/openapi.yaml'],
        ['POST', '/api/auth/sign-out/'],
      ]) {
        const res = await server.request(method, url, { unchecked: true });
        expect(res.status, `${method} ${url}`).to.be.oneOf([200, 204]);
      }
      expect(policyLines(server)).to.deep.equal([]);
      const upper = await server.request('GET', ROUTE.toUpperCase(), { headers: admin, unchecked: true });
      expect(upper.status).to.equal(403);
      expect(upper.body.code).to.equal('policy_blocked');
      expect(policyLines(server)[0]).to.include({ policy: ROUTE, required: 'superuser' });
    });

    it('never replaces the access check: a laxer registry still leaves x-access enforced in enforce mode', async () => {
      const lax = await startTestServer({
        config: { publicApiPolicyMode: 'enforce' },
        registry: withEntry({ path: '/api/sudo/', match: 'prefix', level: 'admin' }),
        keepData: true,
      });
      try {
        const res = await lax.request('GET', ROUTE, { headers: admin });
        expect(res.status).to.equal(403);
        expect(res.body.code).to.equal('insufficient_role');
        expect(policyLines(lax)).to.deep.equal([]);
      } finally {
        await lax.close();
      }
    });
  });

  describe('boot refuses a contract, handler map and registry that disagree', () => {
    const boot = async (overrides: { handlers?: HandlerMap; registry?: PolicyEntry[]; contract?: Contract }) => {
      const db = await testDatabase();
      try {
        createApp({ config: loadConfig({ NODE_ENV: 'test' }), db, logger: createLogger('silent'), ...overrides });
      } catch (err) {
        return err;
      }
      return undefined;
    };
    const problemsOf = (err: unknown) => {
      expect(err).to.be.instanceOf(ContractError);
      return (err as ContractError).problems;
    };

    it('boots with the real handlers and registry', async () => {
      expect(await boot({})).to.equal(undefined);
    });

    it('names an operation without a handler', async () => {
      const { getLiveness: _dropped, ...rest } = realHandlers;
      expect(problemsOf(await boot({ handlers: rest }))).to.deep.equal(['operation getLiveness has no handler']);
    });

    it('names a handler without an operation', async () => {
      const handlers: HandlerMap = { ...realHandlers, listStageLights: () => ({ status: 200, body: [] }) };
      expect(problemsOf(await boot({ handlers }))).to.deep.equal(['handler listStageLights has no operation in openapi.yaml']);
    });

    it('refuses a registry that leaves public operations uncovered', async () => {
      const problems = problemsOf(await boot({ registry: without('/api/system/health/') }));
      expect(problems).to.have.length(2);
      expect(problems.join('\n')).to.contain('getLiveness').and.to.contain('getReadiness');
    });

    it('refuses a registry with a broad public prefix, or one demanding more than x-access', async () => {
      expect(problemsOf(await boot({ registry: withEntry({ path: '/api/', match: 'prefix', level: 'public' }) })).join('\n')).to.contain('public prefix /api/ is too broad');
      expect(problemsOf(await boot({ registry: withEntry({ path: '/api/auth/me', match: 'exact', level: 'admin' }) })).join('\n')).to.contain('demands admin');
    });

    it('refuses an operation without x-access (loading the contract)', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-'));
      const file = path.join(dir, 'openapi.yaml');
      fs.writeFileSync(file, fs.readFileSync(CONTRACT_PATH, 'utf8').replace(/(operationId: getReadiness[\s\S]*?)\n\s*x-access: public/, '$1'));
      try {
        expect(() => loadContract(file)).to.throw(ContractError, 'GET /api/system/health/ready: x-access must be one of');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
