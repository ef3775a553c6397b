import type { PolicyEntry } from '../../platform/http/policy.ts';

/**
 * Public API policy entries of the payments module: VNPay's two callbacks, each exact and GET only, and the
 * development sandbox's pay page (GET, and POST for its buttons). The guest's
 * checkout (`/api/public/reservations/{reference}/checkout`) is under booking's `/api/public/reservations/`
 * family (GET, HEAD, POST with the reservation token). Everything else here (`/api/payments`, `/api/refunds`)
 * stays under the base `/api/` staff entry, and the contract's `x-access: admin` narrows it.
 */
export const policy: PolicyEntry[] = [
  { path: '/api/payments/vnpay/return', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  { path: '/api/payments/vnpay/ipn', match: 'exact', methods: ['GET', 'HEAD'], level: 'public' },
  // The development sandbox's pay page and its buttons (404 unless VNPAY_SANDBOX is on; refused in production).
  { path: '/api/payments/vnpay/sandbox', match: 'exact', methods: ['GET', 'HEAD', 'POST'], level: 'public' },
];
