import type { PolicyEntry } from '../../platform/http/policy.ts';

/**
 * Public API policy entries of the referral partners module: the directory and one partner's profile, both
 * exact (the profile's `{slug}` is the contract's templated segment). The admin routes stay under the base
 * `/api/` entry (their x-access demands admin).
 */
export const policy: PolicyEntry[] = [
  { path: '/api/referral-partners/directory', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  { path: '/api/referral-partners/{slug}/profile', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
];
