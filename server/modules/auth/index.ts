/**
 * The `auth` module's door: what other modules may use (types, reads, services). It imports no handler and no
 * operation's command; its record is module.ts.
 */
export { RECENT_SIGN_IN_SECONDS, requireRecentSignIn } from './sessions.ts';
export { startSession } from './startSession.ts';
