import type { PolicyEntry } from '../../http/policy.ts';

/** Public API policy entries of the system module: the contract and the health probes are public. */
export const policy: PolicyEntry[] = [
  { path: '/openapi.yaml', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  { path: '/api/system/health/', match: 'prefix', methods: ['GET', 'HEAD'], level: 'public' },
];
