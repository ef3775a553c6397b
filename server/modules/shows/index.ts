/**
 * The `shows` module's door: what other modules may use (types, reads, services). It imports no handler and no
 * operation's command; its record is module.ts.
 */
export { Show } from './models.ts';
export { likeContaining } from './queries.ts';
