/**
 * The `chatPlatform` module's door: what other modules may use (types, reads, services). It imports no handler and no
 * operation's command; its record is module.ts.
 */
export { type TurnChannel } from './turns.ts';
export { insertTurn } from './queries.ts';
export { runTurn } from './commands/runTurn.ts';
