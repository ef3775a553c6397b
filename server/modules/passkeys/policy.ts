import type { PolicyEntry } from '../../platform/http/policy.ts';

/**
 * Public API policy entries of the passkeys module: beginning and finishing a passkey sign-in are public; one's
 * own passkeys need any dashboard session; the superuser routes fall under /api/sudo/.
 */
export const policy: PolicyEntry[] = [
  { path: '/api/auth/passkey-sign-in/options', match: 'exact', methods: ['POST'], level: 'public' },
  { path: '/api/auth/passkey-sign-in', match: 'exact', methods: ['POST'], level: 'public' },
  { path: '/api/auth/passkeys', match: 'exact', level: 'session' },
  { path: '/api/auth/passkeys/', match: 'prefix', level: 'session' },
];
