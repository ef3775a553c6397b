import type { AppContext } from '../../platform/context.ts';
import type { PrimeWork } from '../../platform/prime.ts';

/**
 * The payments module's part of priming (server/platform/prime.ts): the guest's checkout operations, their
 * validators compiled and a refused checkout (no such reservation) walked through the chain; nothing is written.
 */
export async function primePayments(_app: AppContext): Promise<PrimeWork> {
  return {
    operations: ['getCheckoutOptions', 'startCheckout'],
    requests: [
      { method: 'GET', path: '/api/public/reservations/PRIME0000/checkout' },
      { method: 'POST', path: '/api/public/reservations/PRIME0000/checkout', body: {} },
    ],
  };
}
