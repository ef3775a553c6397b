import type { PolicyEntry } from '../../platform/http/policy.ts';

/** Public API policy entries of the system module: the contract, its reference page and the health probes are public. */
export const policy: PolicyEntry[] = [
  { path: '/openapi.yaml', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  // The API reference: the page and its one script, by exact path (nothing else under /docs is public).
  { path: '/docs', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  { path: '/docs/scalar.js', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  { path: '/api/system/health/', match: 'prefix', methods: ['GET', 'HEAD'], level: 'public' },
  // Visit counters: counting a visit and reading the aggregate counts (issue 11).
  { path: '/api/system/visit-notification', match: 'exact', methods: ['POST'], level: 'public' },
  { path: '/api/system/visit-notification/stats', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  // Prometheus metrics: token-guarded (x-access metrics-token; a scraper holds no user identity), so an exact public entry.
  { path: '/metrics', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
];
