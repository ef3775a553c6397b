import type { PolicyEntry } from '../../http/policy.ts';

/**
 * The guest's profile flows, each exact with its methods: create (with the reservation's access token), read
 * and update one's own profile and react (with the profile's token). Staff routes stay under `/api/`.
 */
export const policy: PolicyEntry[] = [
  { path: '/api/public/profiles', match: 'exact', methods: ['POST'], level: 'public' },
  { path: '/api/public/profiles/me', match: 'exact', methods: ['GET', 'HEAD', 'PATCH'], level: 'public' },
  { path: '/api/public/profiles/me/reactions', match: 'exact', methods: ['POST'], level: 'public' },
];
