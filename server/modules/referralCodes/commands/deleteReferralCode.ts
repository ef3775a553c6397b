import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { ReferralCode } from '../models.ts';
import { findCodeOrFail } from '../queries.ts';

/** Archives (idempotent): the code stops applying; reservations and commissions keep it. */
export async function deleteReferralCode(app: Pick<AppContext, 'db' | 'logger'>, id: string): Promise<void> {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now }) => {
    await findCodeOrFail(id, trx);
    await ReferralCode.query(trx).where({ id, status: 'ACTIVE' }).patch({ status: 'ARCHIVED', archivedAt: now });
  });
}
