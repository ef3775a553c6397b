import type { AppContext } from '../../../platform/context.ts';
import { NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Account } from '../../accounts/index.ts';
import { Passkey } from '../models.ts';

/** A superuser revokes one of an account's passkeys (404 for an unknown account, or a passkey not its own). */
export async function revokeUserPasskey(app: Pick<AppContext, 'db' | 'logger'>, userId: string, passkeyId: string): Promise<void> {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    if (!(await Account.query(trx).findById(userId))) throw NotFound('No account with this id.');
    const deleted = await Passkey.query(trx).delete().where({ id: passkeyId, account_id: userId });
    if (deleted === 0) throw NotFound('No passkey with this id.');
  });
}
