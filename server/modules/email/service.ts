/**
 * Nothing lives here any more: the ledger's reads are in ./queries.ts, recording a message in
 * ./commands/recordEmail.ts, sending it in ./commands/deliverEmail.ts.
 */

/** @deprecated kept for test/helpers/mail.ts (outside this module's folders); import it from ./commands/recordEmail.ts. */
export type { Enqueue } from './commands/recordEmail.ts';
