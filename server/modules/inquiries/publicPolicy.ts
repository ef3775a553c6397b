import type { PolicyEntry } from '../../platform/http/policy.ts';

/** The public inquiry form (exact path, POST only); listing and managing inquiries stays staff. */
export const policy: PolicyEntry[] = [{ path: '/api/inquiries', match: 'exact', methods: ['POST'], level: 'public' }];
