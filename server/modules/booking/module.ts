import type { ModuleRecord } from '../record.ts';
import { primeBooking } from './prime.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { reservationPayable } from './payable.ts';
import { policy } from './publicPolicy.ts';
import { bookingServices } from './services.ts';
import { cancellationBusinessEvent, checkedInBusinessEvent, createdBusinessEvent } from './subscribers.ts';

/**
 * The `booking` module's record (server/modules/record.ts): its handlers, policy entries, queues, subscribers and
 * services. Imported by server/modules/index.ts only; what other modules may use is this module's index.ts.
 */
export function record() {
  return { tag: 'booking', handlers, policy, jobs, subscribers: [createdBusinessEvent, checkedInBusinessEvent, cancellationBusinessEvent], services: bookingServices, payables: [reservationPayable], prime: primeBooking } satisfies ModuleRecord;
}
