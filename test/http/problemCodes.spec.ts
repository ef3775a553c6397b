import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { isProblem, type ProblemCode } from '../../sdk/index.ts';
import { contract, contractMismatch } from '../helpers/contract.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * The problem-code registry (openapi/components/problemCodes.yaml, issue 22 §5) and the code agree: the server's
 * `ProblemCode` / `FieldErrorCode` types derive from it (so `tsc` refuses a code it does not list); this spec
 * refuses the other direction (a listed code nothing uses) and keeps the per-operation declarations
 * (`x-problem-codes`) well-formed. That each answer's code is declared for its operation is checked on every test
 * response by the contract checker (test/helpers/contract.ts).
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const schemas = contract.document.components.schemas as Record<string, { enum?: string[]; 'x-enumDescriptions'?: Record<string, string> }>;
const listOf = (name: string) => schemas[name].enum ?? [];
const generic = listOf('GenericProblemCode');
const operationCodes = listOf('OperationProblemCode');
const fieldCodes = listOf('GenericFieldErrorCode');

/** Ajv keywords that report an error of their own (`if`/`anyOf` are dropped by toFieldErrors; `allOf`, `items` … report their children's). */
const REPORTING_KEYWORDS = new Set([
  'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength',
  'minLength', 'pattern', 'format', 'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'contains',
  'maxProperties', 'minProperties', 'required', 'dependentRequired', 'additionalProperties', 'propertyNames',
  'unevaluatedProperties', 'unevaluatedItems', 'not', 'oneOf',
]);

/** The validation keywords the contract's schemas use (a schema's keys, not the names of its properties). */
function keywordsInContract(): Set<string> {
  const found = new Set<string>();
  const walk = (node: unknown, isSchemaMap = false): void => {
    if (Array.isArray(node)) return node.forEach((item) => walk(item));
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (!isSchemaMap && REPORTING_KEYWORDS.has(key) && !(key === 'required' && typeof value === 'boolean')) found.add(key);
      walk(value, !isSchemaMap && (key === 'properties' || key === 'patternProperties' || key === 'x-enumDescriptions'));
    }
  };
  walk(contract.document.paths);
  walk(contract.document.components.schemas);
  return found;
}

/** Every `.ts` file under server/, concatenated: where the codes are thrown. */
function serverSource(): string {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.ts')) out.push(fs.readFileSync(file, 'utf8'));
    }
  };
  walk(path.join(ROOT, 'server'));
  return out.join('\n');
}

function declarations(): Array<{ operationId: string; codes: unknown }> {
  const out: Array<{ operationId: string; codes: unknown }> = [];
  for (const item of Object.values<Record<string, any>>(contract.document.paths)) {
    for (const op of Object.values<any>(item)) {
      if (op && typeof op === 'object' && op.operationId && 'x-problem-codes' in op) out.push({ operationId: op.operationId, codes: op['x-problem-codes'] });
    }
  }
  return out;
}

describe('problem codes: the registry', () => {
  it('lists each code once, with a description', () => {
    const all = [...generic, ...operationCodes, ...fieldCodes];
    expect(all.filter((code, index) => all.indexOf(code) !== index), 'listed twice').to.deep.equal([]);
    for (const name of ['GenericProblemCode', 'OperationProblemCode', 'GenericFieldErrorCode']) {
      const described = Object.keys(schemas[name]['x-enumDescriptions'] ?? {}).sort();
      expect(described, `${name}: x-enumDescriptions names exactly its enum`).to.deep.equal([...listOf(name)].sort());
      for (const code of listOf(name)) expect(code, `${name}: a code is snake_case or a JSON Schema keyword`).to.match(/^[a-z][a-zA-Z_]*$/);
    }
  });

  it('has no code the server never uses (each is a literal in server/, or a schema keyword the validator reports)', () => {
    const source = serverSource();
    const keywords = keywordsInContract();
    const unused = [...generic, ...operationCodes, ...fieldCodes].filter((code) => !source.includes(`'${code}'`) && !keywords.has(code));
    expect(unused).to.deep.equal([]);
  });

  it('lists, as a field code, every keyword of the contract\'s schemas the validator can report', () => {
    const missing = [...keywordsInContract()].filter((keyword) => !fieldCodes.includes(keyword));
    expect(missing).to.deep.equal([]);
  });

  it('fixed the drift: a field failing "exactly one of" is `oneOf` everywhere (the Ajv keyword), never `one_of`', () => {
    expect(fieldCodes).to.include('oneOf').and.not.include('one_of');
    expect(serverSource()).not.to.include("'one_of'");
  });
});

describe('problem codes: per operation (x-problem-codes)', () => {
  it('declares only operation codes, each once, and every operation code is declared by some operation', () => {
    const declaredAnywhere = new Set<string>();
    for (const { operationId, codes } of declarations()) {
      expect(codes, operationId).to.be.an('array').that.is.not.empty;
      const list = codes as string[];
      expect(list.filter((code, index) => list.indexOf(code) !== index), `${operationId}: listed twice`).to.deep.equal([]);
      expect([...list].sort(), `${operationId}: in order`).to.deep.equal(list);
      for (const code of list) {
        expect(operationCodes, `${operationId}: ${code} is an OperationProblemCode (generic codes are not repeated)`).to.include(code);
        declaredAnywhere.add(code);
      }
    }
    expect(operationCodes.filter((code) => !declaredAnywhere.has(code)), 'declared by no operation').to.deep.equal([]);
  });

  it('the contract checker fails an answer whose code its operation does not declare', () => {
    const problem = (code: string, status: number) => ({ type: `https://venue.local/problems/${code}`, title: 'Conflict', status, code, requestId: 'r' });
    const type = 'application/problem+json';
    expect(contractMismatch('POST', '/api/public/reservations', 409, type, problem('sold_out', 409))).to.equal(undefined);
    expect(contractMismatch('POST', '/api/public/reservations', 400, type, problem('validation_failed', 400))).to.equal(undefined);
    expect(contractMismatch('POST', '/api/public/reservations', 409, type, problem('refund_via_gateway', 409))).to.match(
      /createPublicReservation: problem code refund_via_gateway is not declared/,
    );
    // A code outside the registry is refused by the Problem schema itself.
    expect(contractMismatch('POST', '/api/public/reservations', 409, type, problem('sold_uot', 409))).to.match(/does not match/);
  });
});

describe('problem codes: the SDK', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('isProblem narrows a { data, error } result and an ApiError by code', async () => {
    const client = server.client({});
    const { error } = await client.POST('/api/auth/sign-in', { body: { identifier: 'nobody@venue.local', password: 'not the password' } });
    expect(isProblem(error)).to.equal(true);
    expect(isProblem(error, 'invalid_credentials')).to.equal(true);
    expect(isProblem(error, 'sold_out', 'unauthenticated')).to.equal(false);
    if (isProblem(error, 'invalid_credentials')) {
      const code: 'invalid_credentials' = error.code;
      expect(code).to.equal('invalid_credentials');
    }
    expect(isProblem(undefined, 'sold_out')).to.equal(false);
    expect(isProblem(new Error('plain'))).to.equal(false);
    const codes: ProblemCode[] = ['sold_out'];
    // @ts-expect-error a code outside the registry does not type-check
    codes.push('sold_uot');
    // @ts-expect-error neither as an isProblem argument
    isProblem(error, 'sold_uot');
  });
});
