import type { PolicyEntry } from '../../platform/http/policy.ts';

/**
 * Public API policy entries of the assistant's entry points: each by its exact path and method. The disabled
 * agent runtime (`/api/agentruntime/*`) is unmounted and needs none.
 */
export const policy: PolicyEntry[] = [
  { path: '/llm/chat', match: 'exact', methods: ['POST'], level: 'public' },
  { path: '/api/ai/demo', match: 'exact', methods: ['POST'], level: 'public' },
  { path: '/api/ai/customer-support', match: 'exact', methods: ['POST'], level: 'public' },
];
