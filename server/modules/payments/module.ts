import type { ModuleRecord } from '../record.ts';
import { primePayments } from './prime.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { policy } from './publicPolicy.ts';
import { cancellationRefunds } from './subscribers.ts';
import { paymentsServices } from './vnpay.ts';

/**
 * The `payments` module's record (server/modules/record.ts): its handlers, policy entries, queues, subscribers and
 * services. Imported by server/modules/index.ts only; what other modules may use is this module's index.ts.
 */
export function record() {
  return { tag: 'payments', handlers, policy, jobs, subscribers: [cancellationRefunds], services: paymentsServices, prime: primePayments } satisfies ModuleRecord;
}
