import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Passkey } from '../models.ts';
import { findPasskeyOfOrFail } from '../queries.ts';

/** Renames one of the account's passkeys (404 for any other). */
export async function renameOwnPasskey(app: Pick<AppContext, 'db' | 'logger'>, accountId: string, passkeyId: string, label: string): Promise<Passkey> {
  const passkey = await findPasskeyOfOrFail(accountId, passkeyId);
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await Passkey.query(trx).patch({ label: label.trim() }).where('id', passkey.id);
  });
  return findPasskeyOfOrFail(accountId, passkeyId);
}
