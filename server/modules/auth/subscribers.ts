import { subscriber } from '../../domain/events.ts';
import { revokeSessions } from './sessions.ts';

/**
 * The auth module's part in other flows (declared in the module's record, ./index.ts): an account whose password
 * was reset or that was banned (`account.signInRevoked`, published by the accounts module's updateUser) loses every
 * open session in the same transaction, before its other credentials go (passkeys, order 10).
 */
export const subscribers = [
  subscriber({
    name: 'auth.end-sessions-on-sign-in-revoked',
    event: 'account.signInRevoked',
    phase: 'in-transaction',
    order: 5,
    async handle({ accountId }, { trx }) {
      return { ended: await revokeSessions(accountId, trx) };
    },
  }),
];
