import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Session } from '../models.ts';

/** Ends the session whose token hashes to `tokenHash` (nothing when there is none). */
export async function signOut(app: Pick<AppContext, 'db' | 'logger'>, tokenHash: string | undefined): Promise<void> {
  if (!tokenHash) return;
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await Session.query(trx).delete().where('token_hash', tokenHash);
  });
}
