import type { AppContext } from '../../../platform/context.ts';
import { NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Passkey } from '../models.ts';

/** Removes one of the account's passkeys (404 for any other): it signs in no more. */
export async function deleteOwnPasskey(app: Pick<AppContext, 'db' | 'logger'>, accountId: string, passkeyId: string): Promise<void> {
  const deleted = await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => Passkey.query(trx).delete().where({ id: passkeyId, account_id: accountId }));
  if (deleted === 0) throw NotFound('No passkey with this id.');
}
