import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Inquiry } from '../models.ts';
import { findInquiryOrFail } from '../queries.ts';

/** Archive = ARCHIVED (idempotent). */
export async function archiveInquiry(app: AppContext, id: string): Promise<void> {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now }) => {
    const current = await findInquiryOrFail(trx, id);
    if (current.status === 'ARCHIVED') return;
    await Inquiry.query(trx).findById(id).patch({ status: 'ARCHIVED', archivedAt: now, updatedAt: now });
  });
}
