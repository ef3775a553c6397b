import type { PolicyEntry } from '../../platform/http/policy.ts';

/** The public voucher balance check (exact, POST only); every other voucher route stays staff. */
export const policy: PolicyEntry[] = [{ path: '/api/public/vouchers/balance', match: 'exact', methods: ['POST'], level: 'public' }];
