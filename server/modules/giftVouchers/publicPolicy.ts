import type { PolicyEntry } from '../../platform/http/policy.ts';

/**
 * Public API policy entries of the giftVouchers module: the terms (GET), the purchase (POST, exact), and one order read
 * or paid with its access token (`x-gift-order-token`). Staff's list and refund stay under the base `/api/` entry.
 */
export const policy: PolicyEntry[] = [
  { path: '/api/public/gift-vouchers/options', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  { path: '/api/public/gift-vouchers', match: 'exact', methods: ['POST'], level: 'public' },
  { path: '/api/public/gift-vouchers/orders/', match: 'prefix', methods: ['GET', 'HEAD', 'POST'], level: 'public' },
];
