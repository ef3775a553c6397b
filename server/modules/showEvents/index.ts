/**
 * The `showEvents` module's door: what other modules may use (types, reads, services). It imports no handler and no
 * operation's command; its record is module.ts.
 */
export { type ShowEventStatus } from './models.ts';
