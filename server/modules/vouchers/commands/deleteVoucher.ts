import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { findVoucherOrFail } from '../queries.ts';

/** Delete = EXPIRED with nothing left (idempotent). Reservations that used it keep their credit. */
export async function deleteVoucher(app: Pick<AppContext, 'db' | 'logger'>, id: string, now = new Date()): Promise<void> {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const current = await findVoucherOrFail(id, trx, { forUpdate: true });
    if (current.status === 'EXPIRED') return;
    await current.$query(trx).patch({ status: 'EXPIRED', remainingValueVnd: 0, expiredAt: now });
  });
}
