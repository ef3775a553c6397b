import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { policy } from './publicPolicy.ts';
import { cancellationRefunds } from './subscribers.ts';
import { paymentsServices } from './vnpay.ts';

/** The `payments` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'payments', handlers, policy, jobs, subscribers: [cancellationRefunds], services: paymentsServices } satisfies ModuleRecord;
}

// ---- what other modules use (they import this module through this file only) ----
export { PAID_STATUSES } from './models.ts';
/** A module selling a payable (server/domain/payables.ts) starts its payer's checkout with this, and lists it in its record's `payables`. */
export { startCheckout, type CheckoutAnswer, type CheckoutInput } from './commands/startCheckout.ts';
