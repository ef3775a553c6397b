import type { PolicyEntry } from '../../platform/http/policy.ts';

/** The internal transcript notification: token-guarded (x-access service-token), so an explicit exact public entry. */
export const policy: PolicyEntry[] = [{ path: '/api/ai/customer-support/chat-notifications', match: 'exact', methods: ['POST'], level: 'public' }];

/** Paths only servers call: no CORS headers at all, and no preflight (server/platform/http/cors.ts skips them). */
export const SERVER_ONLY_PATHS = ['/api/ai/customer-support/chat-notifications'];
