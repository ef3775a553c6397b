import type { PolicyEntry } from '../../platform/http/policy.ts';

/**
 * Public API policy entries of the booking module: the guest's lead capture, the party's quote, hold creation, and reading or
 * cancelling one reservation with its access token (x-reservation-token). Each is exact or a narrow family
 * with its method; every other booking route (staff, later) stays under the base `/api/` staff entry.
 */
export const policy: PolicyEntry[] = [
  { path: '/api/reservations/customer-lead', match: 'exact', methods: ['POST'], level: 'public' },
  { path: '/api/public/reservations', match: 'exact', methods: ['POST'], level: 'public' },
  // The party's price before the hold (issue 34 §3): a read, POSTed so the codes stay out of URLs.
  { path: '/api/public/quotes', match: 'exact', methods: ['POST'], level: 'public' },
  { path: '/api/public/reservations/', match: 'prefix', methods: ['GET', 'HEAD', 'POST'], level: 'public' },
];
