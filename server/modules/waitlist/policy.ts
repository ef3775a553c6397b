import type { PolicyEntry } from '../../http/policy.ts';

/** Joining the waiting list (exact path, POST only); every other waiting-list route stays staff. */
export const policy: PolicyEntry[] = [{ path: '/api/public/waitlist', match: 'exact', methods: ['POST'], level: 'public' }];
