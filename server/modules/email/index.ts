/**
 * The `email` module's door: what other modules may use (types, reads, services). It imports no handler and no
 * operation's command; its record is module.ts.
 */
export { recordEmail } from './commands/recordEmail.ts';
export { type EmailMessage } from './models.ts';
export { presentEmailListItem } from './presenters.ts';
export { listMessages, moveCustomerMessages } from './queries.ts';
/** The venue's name as `EMAIL_FROM` gives it (`"Venue" <hello@…>` → `Venue`). */
export { displayName } from './addresses.ts';
