import { Ajv2020 } from 'ajv/dist/2020.js';
import { loadContract, type Contract, type Operation } from '../../server/http/contract.ts';
import { compileResponseValidators } from '../../server/http/validation.ts';

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
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const validateProblem = ajv.compile(structuredClone(target.document.components.schemas.Problem));

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
      return responseValidators.get(op.operationId)!(status, contentType ?? undefined, body === '' ? undefined : body);
    }
    if (status === 204 || method.toUpperCase() === 'HEAD') return undefined;
    if (!contentType?.startsWith('application/problem+json')) return `${method} ${path} → ${status} is not a problem document (${contentType})`;
    if (!validateProblem(body)) return `${method} ${path} → ${status} problem does not match: ${ajv.errorsText(validateProblem.errors)}`;
    return undefined;
  }

  return { findOperation, mismatch };
}

const defaultChecker = createContractChecker(contract);
export const findOperation = defaultChecker.findOperation;
export const contractMismatch = defaultChecker.mismatch;
