import { subscriber } from '../../domain/events.ts';
import { removeAccountPasskeys } from './commands/removeAccountPasskeys.ts';

/**
 * The passkeys' part in other flows (declared in the module's record, ./index.ts): an account whose password was
 * reset or that was banned (`account.signInRevoked`, published by the accounts module's updateUser; auth's
 * subscriber ends its sessions first) loses its passkeys in the same transaction.
 */
export const subscribers = [
  subscriber({
    name: 'passkeys.remove-on-sign-in-revoked',
    event: 'account.signInRevoked',
    phase: 'in-transaction',
    order: 10,
    async handle({ accountId }, { trx }) {
      return { removed: await removeAccountPasskeys(trx, accountId) };
    },
  }),
];
