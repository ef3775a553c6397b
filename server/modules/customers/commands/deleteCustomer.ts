import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { softDeleteCustomer } from '../../booking/index.ts';
import { findCustomerOrFail } from '../queries.ts';

/** Soft delete: the row, its reservations and e-mail history stay; deleting again changes nothing. */
export async function deleteCustomer(app: AppContext, id: string): Promise<void> {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now }) => {
    const customer = await findCustomerOrFail(trx, id);
    if (customer.isDeleted) return;
    await softDeleteCustomer(trx, id, now);
  });
}
