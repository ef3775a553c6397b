import type { Knex } from 'knex';
import { Passkey } from '../models.ts';

/**
 * Removes every passkey of an account, in the caller's transaction (the subscriber to `account.signInRevoked`: a
 * password reset or a ban). A passkey is a way in like the password: one added by whoever held a session must not
 * survive the reset meant to lock them out. Answers how many were removed.
 */
export async function removeAccountPasskeys(trx: Knex.Transaction, accountId: string): Promise<number> {
  return Passkey.query(trx).delete().where('account_id', accountId);
}
