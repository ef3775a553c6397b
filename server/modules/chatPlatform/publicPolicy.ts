import type { PolicyEntry } from '../../platform/http/policy.ts';

/** The chat-platform webhook: token-guarded (x-access chat-webhook-token), so an explicit exact public entry. */
export const policy: PolicyEntry[] = [{ path: '/llm/chat-platform', match: 'exact', methods: ['POST'], level: 'public' }];
