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

/**
 * Spec §5.6: the website chat answers any origin, whatever ALLOWED_ORIGIN lists (a venue's widget may sit on a partner's
 * site), and never with credentials (server/platform/http/cors.ts).
 */
export const ANY_ORIGIN_PATHS = ['/llm/chat'];
