import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { PromoCode } from '../models.ts';
import { NoSuchPromoCode } from '../queries.ts';

/** Delete = INACTIVE (idempotent); the reservations that used it keep their code and redemption rows. */
export async function deletePromoCode(app: Pick<AppContext, 'db' | 'logger'>, id: string): Promise<void> {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const changed = await PromoCode.query(trx).findById(id).patch({ status: 'INACTIVE' });
    if (!changed) throw NoSuchPromoCode();
  });
}
