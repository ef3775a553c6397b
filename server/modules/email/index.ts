import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { cancellationMessage, confirmationMessage, holdExpiredMessages } from './subscribers.ts';

/** The `email` module's record (server/modules/record.ts): what the rest of the server knows of it (a function: read once
 * at boot, after every module has loaded, so modules may import each other's index.ts in any order). */
export function record() {
  return { tag: 'email', handlers, jobs, subscribers: [confirmationMessage, holdExpiredMessages, cancellationMessage] } satisfies ModuleRecord;
}

// ---- what other modules use (they import this module through this file only) ----
export { queueRefundOutcomeEmail } from './commands/guestMessages.ts';
export { recordEmail } from './commands/recordEmail.ts';
export { type EmailMessage } from './models.ts';
export { presentEmailListItem } from './presenters.ts';
export { listMessages } from './queries.ts';
