import type { PolicyEntry } from '../../platform/http/policy.ts';

/**
 * The guest's profile flows (spec §4.3 `/api/profiles`), each exact with its methods: create (with the
 * reservation's access token; POST only — the floor's list at GET /api/profiles stays staff), read and update
 * one's own profile and react (with the profile's token). The deprecated aliases under `/api/public/profiles`
 * are listed the same way. Staff routes (`/api/profiles/{profileId}`, the list) stay under `/api/`.
 */
export const policy: PolicyEntry[] = [
  { path: '/api/profiles', match: 'exact', methods: ['POST'], level: 'public' },
  { path: '/api/profiles/me', match: 'exact', methods: ['GET', 'HEAD', 'PATCH'], level: 'public' },
  { path: '/api/profiles/me/reactions', match: 'exact', methods: ['POST'], level: 'public' },
  { path: '/api/public/profiles', match: 'exact', methods: ['POST'], level: 'public' },
  { path: '/api/public/profiles/me', match: 'exact', methods: ['GET', 'HEAD', 'PATCH'], level: 'public' },
  { path: '/api/public/profiles/me/reactions', match: 'exact', methods: ['POST'], level: 'public' },
];
