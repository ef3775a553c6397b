import type { PolicyEntry } from '../../platform/http/policy.ts';

/**
 * Public API policy entries of the assistant-safe reads (spec §4.1): each route by its exact path, reads only
 * (GET, and HEAD which the router answers with GET). Everything else under /api/ai/ (knowledge management, the
 * chat entry points' own entries) stays with the base `/api/` staff entry unless its module names it.
 */
export const policy: PolicyEntry[] = [
  { path: '/api/ai/customer-support/catalog/shows', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  { path: '/api/ai/customer-support/catalog/events', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  { path: '/api/ai/customer-support/catalog/availability', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  { path: '/api/ai/customer-support/catalog/booking-options', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  { path: '/api/ai/customer-support/catalog/routes', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  { path: '/api/ai/customer-support/knowledge', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
];
