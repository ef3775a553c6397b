import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parse, stringify } from 'yaml';
import { CONTRACT_PATH, ContractError, loadContract, resolveRef, type Operation } from '../../server/platform/http/contract.ts';
import { handlers } from '../../server/modules/index.ts';
import { contract } from '../helpers/contract.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Deprecated aliases (`x-deprecated-alias`, issue 21 §4): where the contract's path differed from the spec's,
 * the spec's path is the operation and the old one stays one release as an alias. The access matrix, the
 * fuzzing and the convention spec walk the aliases like any operation; this spec holds what makes them
 * aliases: the same handler, the same input and answers, and a loader that refuses a malformed declaration.
 */
const aliases = contract.operations.filter((op) => op.alias);
const byId = new Map(contract.operations.map((op) => [op.operationId, op]));
const successorOf = (op: Operation) => byId.get(op.alias!.of)!;

/** Resolved, with every `$ref` followed, so two declarations compare by what they say. */
function resolved(value: unknown): unknown {
  const node = resolveRef(contract.document, value);
  if (Array.isArray(node)) return node.map(resolved);
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolved(v)]));
  return node;
}

/** A response without the alias's own notice headers and descriptions. */
function comparable(response: any): unknown {
  const { description: _d, headers = {}, ...rest } = resolved(response) as any;
  const { Deprecation: _dep, Link: _link, ...others } = headers;
  return { ...rest, headers: Object.fromEntries(Object.entries(others).map(([name, h]: [string, any]) => [name, h.schema])) };
}

function rawOperation(op: Operation): any {
  return resolveRef<any>(contract.document, contract.document.paths[op.path])[op.method.toLowerCase()];
}

describe('deprecated aliases (x-deprecated-alias)', () => {
  it('the spec’s paths are the operations; the old paths are their aliases', () => {
    const declared = Object.fromEntries(aliases.map((op) => [`${op.method} ${op.path}`, `${successorOf(op).method} ${successorOf(op).path}`]));
    expect(declared).to.include({
      'POST /api/public/waitlist': 'POST /api/waitlist',
      'POST /api/public/profiles': 'POST /api/profiles',
      'GET /api/public/profiles/me': 'GET /api/profiles/me',
      'PATCH /api/public/profiles/me': 'PATCH /api/profiles/me',
      'POST /api/public/profiles/me/reactions': 'POST /api/profiles/me/reactions',
    });
  });

  for (const op of aliases) {
    const successor = () => successorOf(op);
    describe(`${op.operationId} (${op.method} ${op.path})`, () => {
      it('is bound to its successor’s very handler', () => {
        expect(handlers[op.operationId], op.operationId).to.be.a('function');
        expect(handlers[op.operationId]).to.equal(handlers[successor().operationId]);
      });

      it('takes the same input and admits the same callers', () => {
        expect(rawOperation(op).deprecated).to.equal(true);
        expect(rawOperation(successor()).deprecated).to.not.equal(true);
        expect({ access: op.access, permission: op.permission, apiKey: op.apiKey, tags: op.tags }).to.deep.equal({
          access: successor().access,
          permission: successor().permission,
          apiKey: successor().apiKey,
          tags: successor().tags,
        });
        const params = (o: Operation) => resolved(o.parameters.map(({ name, in: where, required, schema }) => ({ name, in: where, required, schema })));
        expect(params(op)).to.deep.equal(params(successor()));
        expect(resolved(op.requestBody?.content)).to.deep.equal(resolved(successor().requestBody?.content));
      });

      it('declares the same answers, each success with Deprecation and Link', () => {
        const mine = rawOperation(op).responses;
        const theirs = rawOperation(successor()).responses;
        expect(Object.keys(mine).sort()).to.deep.equal(Object.keys(theirs).sort());
        for (const status of Object.keys(mine)) expect(comparable(mine[status]), status).to.deep.equal(comparable(theirs[status]));
        for (const status of Object.keys(mine).filter((s) => s.startsWith('2'))) {
          expect(Object.keys((resolved(mine[status]) as any).headers ?? {})).to.include.members(['Deprecation', 'Link']);
        }
      });
    });
  }

  describe('the deprecation date (issue 32)', () => {
    /** The day an alias declares, as written in the contract. */
    const declaredSince = (op: Operation): string => rawOperation(op)['x-deprecated-alias'].since;

    it('every alias was deprecated on a day already past: RFC 9745 reads a future date as "not yet deprecated"', () => {
      const today = new Date().toISOString().slice(0, 10);
      expect(aliases).to.not.be.empty;
      for (const op of aliases) {
        expect(declaredSince(op) <= today, `${op.operationId}: since ${declaredSince(op)} is after today (${today})`).to.equal(true);
        expect(op.alias!.since.toISOString().slice(0, 10), op.operationId).to.equal(declaredSince(op));
      }
    });

    describe('over HTTP', () => {
      let server: TestServer;
      before(async () => {
        server = await startTestServer();
      });
      after(() => server?.close());

      it('every answer of an alias (a refusal too) carries its `since` day as Deprecation: @<unix seconds>', async () => {
        for (const op of aliases) {
          const res = await server.request(op.method, op.path.replace(/\{[^}]+\}/g, 'unknown'), op.requestBody ? { body: {} } : {});
          expect(res.status, op.operationId).to.be.within(400, 499);
          expect(res.headers.get('deprecation'), op.operationId).to.equal(`@${Date.parse(`${declaredSince(op)}T00:00:00Z`) / 1000}`);
        }
      });
    });
  });

  describe('the loader refuses a malformed alias', () => {
    function problemsWith(mutate: (document: any) => void): string {
      const document = parse(fs.readFileSync(CONTRACT_PATH, 'utf8'));
      mutate(document);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-'));
      const file = path.join(dir, 'openapi.yaml');
      fs.writeFileSync(file, stringify(document, { aliasDuplicateObjects: false }));
      try {
        loadContract(file);
        return '';
      } catch (err) {
        expect(err).to.be.instanceOf(ContractError);
        return (err as ContractError).problems.join('\n');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    const join = (document: any) => document.paths['/api/public/waitlist'].post;

    it('without deprecated: true, or with a bad date', () => {
      expect(problemsWith((d) => delete join(d).deprecated)).to.contain('POST /api/public/waitlist: x-deprecated-alias needs deprecated: true');
      expect(problemsWith((d) => (join(d)['x-deprecated-alias'].since = 'soon'))).to.contain('x-deprecated-alias.since must be a date');
      expect(problemsWith((d) => (join(d)['x-deprecated-alias'].since = '2026-02-31'))).to.contain('x-deprecated-alias.since must be a date');
    });

    it('naming no operation, another method, or admitting other callers', () => {
      expect(problemsWith((d) => (join(d)['x-deprecated-alias'].of = 'noSuchOperation'))).to.contain('x-deprecated-alias.of must name an operation');
      expect(problemsWith((d) => (join(d)['x-deprecated-alias'].of = 'listWaitlistEntries'))).to.contain('an alias keeps the method');
      const widened = problemsWith((d) => {
        Object.assign(join(d), { 'x-access': 'staff', 'x-permission': 'waitlist:write', security: [{ sessionCookie: [] }, { superuserToken: [] }, { superuserBearer: [] }, { apiKey: [] }] });
      });
      expect(widened).to.contain('access staff differs from joinWaitlist');
    });

    it('accepts the contract as it is', () => {
      expect(problemsWith(() => {})).to.equal('');
    });
  });
});
