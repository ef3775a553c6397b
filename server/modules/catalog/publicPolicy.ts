import type { PolicyEntry } from '../../platform/http/policy.ts';

/**
 * Public API policy entries of the catalog module (the guest website's reads): the two lists by their exact
 * paths and one show or one event by slug under their own families. Reads only (GET, and HEAD which the router
 * answers with GET); everything else under /api/public/ stays covered by the base `/api/` staff entry.
 */
export const policy: PolicyEntry[] = [
  { path: '/api/public/shows', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  { path: '/api/public/shows/', match: 'prefix', methods: ['GET', 'HEAD'], level: 'public' },
  { path: '/api/public/show-events', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  { path: '/api/public/show-events/', match: 'prefix', methods: ['GET', 'HEAD'], level: 'public' },
];
