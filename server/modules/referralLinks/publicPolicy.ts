import type { PolicyEntry } from '../../platform/http/policy.ts';

/** Public API policy entry of the referral links module: resolving a `/go/{slug}` link (exact, POST only). */
export const policy: PolicyEntry[] = [{ path: '/api/referral-links/resolve/{slug}', match: 'exact', methods: ['POST'], level: 'public' }];
