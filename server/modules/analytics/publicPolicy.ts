import type { PolicyEntry } from '../../platform/http/policy.ts';

/** Public API policy entries of the analytics module: only the browser's Meta event landing (exact, POST). */
export const policy: PolicyEntry[] = [{ path: '/api/analytics/meta/outbound-event', match: 'exact', methods: ['POST'], level: 'public' }];
