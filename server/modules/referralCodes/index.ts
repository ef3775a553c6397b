/**
 * The `referralCodes` module's door: what other modules may use (types, reads, services). It imports no handler and no
 * operation's command; its record is module.ts.
 */
export { normalizeCode } from './codeValue.ts';
export { ReferralCode } from './models.ts';
