/**
 * The `waitlist` module's door: what other modules may use. It imports no handler and no operation's command; its
 * record is module.ts. The exports module (issue 36 §2) exports the waiting list with the staff list's own filters.
 */
export { filterEntries, type WaitlistFilters } from './queries.ts';
