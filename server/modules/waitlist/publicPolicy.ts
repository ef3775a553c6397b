import type { PolicyEntry } from '../../platform/http/policy.ts';

/**
 * Joining the waiting list (exact path, POST only: the staff list at GET /api/waitlist stays staff), and its
 * deprecated alias `POST /api/public/waitlist`; every other waiting-list route stays staff.
 */
export const policy: PolicyEntry[] = [
  { path: '/api/waitlist', match: 'exact', methods: ['POST'], level: 'public' },
  { path: '/api/public/waitlist', match: 'exact', methods: ['POST'], level: 'public' },
];
