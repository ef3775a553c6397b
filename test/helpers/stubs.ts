import type { Contract } from '../../server/platform/http/contract.ts';
import type { HandlerMap } from '../../server/platform/http/handler.ts';

/** The header a stub handler sets, naming its operation: proof that a request got past access and validation. */
export const STUB_HEADER = 'x-stub-handler';

/**
 * A handler for every (enabled) operation of the contract that does nothing but answer the operation's first
 * declared success status, without a body. For specs about what happens before a handler (access, policy,
 * validation): no database work, nothing destructive. Servers using it need `validateResponses: false` (the
 * empty reply does not match most success schemas) and unchecked requests for the allowed calls.
 */
export function stubHandlers(contract: Contract): HandlerMap {
  const map: HandlerMap = {};
  for (const op of contract.operations) {
    if (op.access === 'disabled') continue;
    const success = Object.keys(op.responses).map(Number).filter((status) => status >= 200 && status < 300).sort()[0] ?? 204;
    map[op.operationId] = () => ({ status: success, headers: { [STUB_HEADER]: op.operationId } });
  }
  return map;
}
