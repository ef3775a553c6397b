import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { cancellationMessage, confirmationMessage, holdExpiredMessages, payLaterMessage, refundOutcomeMessage } from './subscribers.ts';

/**
 * The `email` module's record (server/modules/record.ts): its handlers, policy entries, queues, subscribers and
 * services. Imported by server/modules/index.ts only; what other modules may use is this module's index.ts.
 */
export function record() {
  return { tag: 'email', handlers, jobs, subscribers: [confirmationMessage, holdExpiredMessages, cancellationMessage, refundOutcomeMessage, payLaterMessage] } satisfies ModuleRecord;
}
