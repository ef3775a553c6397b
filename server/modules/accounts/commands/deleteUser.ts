import type { AppContext } from '../../../platform/context.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Account } from '../models.ts';
import { findAccountOrFail } from '../queries.ts';

/**
 * Deletes an account (its sessions, memberships and API keys go with it, by the foreign keys); never the caller's
 * own (409 `cannot_delete_self`). Every process forgets its keys once committed.
 */
export async function deleteUser(app: Pick<AppContext, 'db' | 'credentials' | 'logger'>, accountId: string, callerAccountId: string | null | undefined): Promise<void> {
  if (callerAccountId === accountId) {
    throw Conflict('cannot_delete_self', 'You cannot delete the account you are signed in with.');
  }
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const account = await findAccountOrFail(accountId, trx);
    await Account.query(trx).deleteById(account.id);
    await app.credentials.changed({ accountId: account.id }, trx);
  });
}
