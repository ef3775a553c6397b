import { expect } from 'chai';
import type { Role } from '../../server/platform/auth/roles.ts';
import type { PolicyMode } from '../../server/platform/config.ts';
import { isTokenLevel, TOKEN_RULES, TOKEN_LEVELS } from '../../server/platform/http/access.ts';
import type { Operation } from '../../server/platform/http/contract.ts';
import { contract, contractMismatch } from '../helpers/contract.ts';
import { buildMatrixIdentities, probeRequest, type MatrixIdentity } from '../helpers/identities.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { STUB_HEADER, stubHandlers } from '../helpers/stubs.ts';

/**
 * The access matrix (issue 2 §8): every operation of openapi.yaml × every kind of caller, allowed or denied
 * exactly as `x-access`, `x-permission` and `x-api-key` say. Everything is derived from the contract, so an
 * operation added later is covered without touching this file.
 *
 * The access decision comes before the handler, so the servers here run stub handlers (test/helpers/stubs.ts):
 * an admitted call costs no database work and runs nothing destructive (migrations, reset) for real. Every
 * operation's real handler is exercised by its own spec (test/accounts, test/http).
 */

type Expectation = { allowed: true } | { allowed: false; status: 401 | 403; code: string };

const RANK: Record<Role, number> = { public: 0, staff: 1, admin: 2, superuser: 3 };
const ALLOWED: Expectation = { allowed: true };
const deny = (status: 401 | 403, code: string): Expectation => ({ allowed: false, status, code });

/** What the contract says for this caller, written from the contract's own description (openapi.yaml info). */
function expected(op: Operation, caller: { role: Role; authSource: string; permissions: string[] }): Expectation {
  switch (op.access) {
    case 'public':
      return ALLOWED;
    case 'session':
      // Any signed-in dashboard session, whatever its role; nothing else.
      return caller.authSource === 'session' ? ALLOWED : deny(401, 'unauthenticated');
    case 'staff':
    case 'admin':
    case 'superuser': {
      if (caller.role === 'public') return deny(401, caller.authSource === 'session' ? 'no_active_membership' : 'unauthenticated');
      if (RANK[caller.role] < RANK[op.access]) return deny(403, 'insufficient_role');
      if (caller.authSource === 'api-key') {
        if (op.apiKey === 'deny') return deny(403, 'api_key_not_allowed');
        // `x-api-key: any`: every valid key, whatever its permission map (no x-permission to hold).
        if (op.apiKey === 'any') return ALLOWED;
        if (!op.permission || !caller.permissions.includes(op.permission)) return deny(403, 'missing_permission');
      }
      return ALLOWED;
    }
    default:
      // Token levels admit only their shared secret, which no human identity presents: the level's own refusal.
      if (isTokenLevel(op.access)) {
        const refusal = TOKEN_RULES[op.access].refuse();
        return deny(refusal.status as 401 | 403, refusal.code);
      }
      throw new Error(`the access matrix does not know x-access ${op.access} (${op.operationId}): teach it`);
  }
}

const operations = contract.operations.filter((op) => op.access !== 'disabled');
const MODES: PolicyMode[] = ['report', 'enforce', 'off'];

describe('access matrix (every operation × every identity, from openapi.yaml)', function () {
  this.timeout(120_000);
  const servers = new Map<PolicyMode, TestServer>();
  let identities: MatrixIdentity[] = [];
  let sessionRows: Array<Record<string, unknown>> = [];

  before(async () => {
    const handlers = stubHandlers(contract);
    const start = (mode: PolicyMode, keepData: boolean) =>
      startTestServer({
        // Every token level configured, so its operations answer the level's refusal rather than 503 not_configured.
        config: { publicApiPolicyMode: mode, validateResponses: false, accessTokens: Object.fromEntries(TOKEN_LEVELS.map((level) => [level, `matrix-${level}-secret`])) },
        handlers,
        keepData,
      });
    const first = await start(MODES[0], false);
    servers.set(MODES[0], first);
    identities = await buildMatrixIdentities(first.db.knex);
    for (const mode of MODES.slice(1)) servers.set(mode, await start(mode, true));
    // Stubs end no session, but the rows are put back after each operation anyway, so a real handler
    // swapped in here could not change the identities under the matrix.
    sessionRows = await first.db.knex('sessions').select('*');
  });
  after(async () => {
    for (const server of servers.values()) await server.close();
  });

  it('covers every identity kind the issue names, and the contract has operations of every guarded level', () => {
    expect(identities).to.have.length(16);
    const levels = new Set(operations.map((op) => op.access));
    for (const level of ['public', 'session', 'superuser']) expect(levels, `an operation with x-access ${level}`).to.include(level);
    // Issue 21 §4: the principal answers every non-public caller, an API key included, with no permission.
    expect(operations.find((op) => op.operationId === 'getCurrentPrincipal')).to.include({ access: 'staff', apiKey: 'any', permission: undefined });
  });

  for (const mode of MODES) {
    describe(`policy mode ${mode}`, () => {
      for (const op of operations) {
        it(`${op.operationId} (${op.method} ${op.path}, x-access ${op.access}${op.permission ? `, ${op.permission}` : ''}${op.apiKey === 'deny' ? ', no API keys' : ''})`, async () => {
          const server = servers.get(mode)!;
          const probe = probeRequest(op);
          const failures: string[] = [];
          try {
            for (const identity of identities) {
              const want = expected(op, { role: identity.role, authSource: identity.authSource, permissions: identity.permissionsFor(op) });
              // Unchecked: a stub's empty success reply is not what the contract declares; problems are checked below.
              const res = await server.request(probe.method, probe.path, {
                body: probe.body,
                headers: { ...probe.headers, ...identity.headersFor(op) },
                unchecked: true,
              });
              const got = `${res.status}${typeof res.body === 'object' && res.body?.code ? ` ${res.body.code}` : ''}`;
              const reached = res.headers.get(STUB_HEADER);
              if (want.allowed) {
                // Admitted: the stub answers, or validation refuses the probe's minimal input (400) first.
                if (!(res.status < 300 && reached === op.operationId) && res.status !== 400) failures.push(`${identity.name}: expected allowed, got ${got}`);
                continue;
              }
              if (reached) failures.push(`${identity.name}: denied with ${got}, yet the handler ran`);
              const mismatch = contractMismatch(probe.method, probe.path, res.status, res.headers.get('content-type'), res.body);
              if (mismatch) failures.push(`${identity.name}: ${mismatch}`);
              // `enforce` may block a role that is too low before the access check does (policy_blocked).
              const codes = mode === 'enforce' && want.status === 403 ? [want.code, 'policy_blocked'] : [want.code];
              if (res.status !== want.status || !codes.includes(res.body?.code)) {
                failures.push(`${identity.name}: expected ${want.status} ${codes.join('|')}, got ${got}`);
              }
            }
          } finally {
            await server.db.knex('sessions').insert(sessionRows).onConflict('id').ignore();
          }
          expect(failures, failures.join('\n')).to.deep.equal([]);
        });
      }
    });
  }
});
