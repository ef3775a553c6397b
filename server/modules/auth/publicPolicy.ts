import type { PolicyEntry } from '../../platform/http/policy.ts';

/**
 * Public API policy entries of the auth module: signing in and out are public; switching organization needs
 * any dashboard session; everything else under /api/auth/ (the current principal) needs staff.
 */
export const policy: PolicyEntry[] = [
  { path: '/api/auth/sign-in', match: 'exact', methods: ['POST'], level: 'public' },
  { path: '/api/auth/sign-out', match: 'exact', methods: ['POST'], level: 'public' },
  { path: '/api/auth/active-organization', match: 'exact', level: 'session' },
  { path: '/api/auth/', match: 'prefix', level: 'staff' },
];
