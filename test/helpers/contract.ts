import fs from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { loadContract, type Contract, type Operation } from '../../server/platform/http/contract.ts';
import { compileResponseValidators } from '../../server/platform/http/validation.ts';

const contract = loadContract();

export { contract };

export interface ContractChecker {
  findOperation(method: string, path: string): Operation | undefined;
  /** What is wrong with a response, or undefined. */
  mismatch(method: string, path: string, status: number, contentType: string | null, body: unknown): string | undefined;
}

const checkers = new WeakMap<Contract, ContractChecker>();

/** A response checker for a contract (openapi.yaml by default; specs of the HTTP layer pass a fixture), built once per contract. */
export function createContractChecker(target: Contract): ContractChecker {
  let checker = checkers.get(target);
  if (!checker) checkers.set(target, (checker = buildContractChecker(target)));
  return checker;
}

function buildContractChecker(target: Contract): ContractChecker {
  const responseValidators = compileResponseValidators(target);
  const routes = target.operations.map((op) => ({
    op,
    pattern: new RegExp(`^${op.path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const problemCodes = declaredProblemCodes(target);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // The Problem schema refers into the document (its codes are the registry's), so the document is added whole.
  ajv.addSchema(structuredClone(target.document), 'contract');
  const validateProblem = ajv.compile({ $ref: 'contract#/components/schemas/Problem' });

  function findOperation(method: string, path: string): Operation | undefined {
    const bare = path.split('?')[0];
    const upper = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    // Static paths win over templated ones, as in the router.
    const candidates = routes.filter((r) => r.op.method === upper && r.pattern.test(bare));
    return (candidates.find((r) => !r.op.path.includes('{')) ?? candidates[0])?.op;
  }

  /**
   * Every response a test sees must be one the contract declares: for a matched operation, a declared status
   * whose body matches its schema (JSON bodies; others by content type); otherwise (404 unknown path, 405,
   * CORS preflight) a problem document or no body.
   */
  function mismatch(method: string, path: string, status: number, contentType: string | null, body: unknown): string | undefined {
    const op = findOperation(method, path);
    if (op && status !== 405 && (status !== 404 || op.responses['404'])) {
      return (
        responseValidators.get(op.operationId)!(status, contentType ?? undefined, body === '' ? undefined : body) ??
        (problemCodes && undeclaredCode(problemCodes, op, contentType, body))
      );
    }
    if (status === 204 || method.toUpperCase() === 'HEAD') return undefined;
    if (!contentType?.startsWith('application/problem+json')) return `${method} ${path} → ${status} is not a problem document (${contentType})`;
    if (!validateProblem(body)) return `${method} ${path} → ${status} problem does not match: ${ajv.errorsText(validateProblem.errors)}`;
    return undefined;
  }

  return { findOperation, mismatch };
}

interface DeclaredProblemCodes {
  /** Codes the request path answers for any operation (`GenericProblemCode`). */
  generic: Set<string>;
  /** operationId → its `x-problem-codes`. */
  byOperation: Map<string, Set<string>>;
}

/** The contract's problem-code declarations; undefined for a contract without the registry (the HTTP layer's fixture). */
function declaredProblemCodes(target: Contract): DeclaredProblemCodes | undefined {
  const generic = target.document.components?.schemas?.GenericProblemCode?.enum as string[] | undefined;
  if (!generic) return undefined;
  const byOperation = new Map<string, Set<string>>();
  for (const item of Object.values<Record<string, any>>(target.document.paths ?? {})) {
    for (const op of Object.values<any>(item)) {
      if (op && typeof op === 'object' && op.operationId) byOperation.set(op.operationId, new Set(op['x-problem-codes'] ?? []));
    }
  }
  return { generic: new Set(generic), byOperation };
}

/**
 * `PROBLEM_CODES_RECORD=<file>`: instead of failing an undeclared code, append `<operationId> <code>` to the
 * file (a run of the suite then lists what each operation answered; for filling `x-problem-codes`).
 */
const RECORD = process.env.PROBLEM_CODES_RECORD;

/**
 * A problem answered by an operation carries a generic code or one of the operation's `x-problem-codes`
 * (openapi/components/problemCodes.yaml): every test answer holds the contract's per-operation declarations
 * to what the server really says.
 */
function undeclaredCode(declared: DeclaredProblemCodes, op: Operation, contentType: string | null, body: unknown): string | undefined {
  if (!contentType?.startsWith('application/problem+json')) return undefined;
  const code = (body as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || declared.generic.has(code) || declared.byOperation.get(op.operationId)?.has(code)) return undefined;
  if (RECORD) {
    fs.appendFileSync(RECORD, `${op.operationId} ${code}\n`);
    return undefined;
  }
  return `${op.operationId}: problem code ${code} is not declared in its x-problem-codes (nor generic)`;
}

const defaultChecker = createContractChecker(contract);
export const findOperation = defaultChecker.findOperation;
export const contractMismatch = defaultChecker.mismatch;
