import type { AppContext } from '../../../platform/context.ts';
import { Unprocessable } from '../../../platform/http/problem.ts';
import type { TransitionActor } from '../../../domain/unitOfWork.ts';
import { inTransition } from '../../../domain/unitOfWork.ts';
import { Customer, patchCustomer, softDeleteCustomer } from '../../booking/index.ts';
import { CustomerDeleted, moveCustomerRows, NoSuchCustomer } from '../queries.ts';

/**
 * One person filed under two customers becomes one: in one transaction (both rows locked, in id order so two
 * merges never wait on each other in a cycle) the duplicate's bookings, leads, waiting-list entries, inquiries,
 * ledger rows and e-mail history move to `customerId`, and the duplicate is soft-deleted (its row stays for
 * audit). The surviving record's own fields are unchanged.
 */
export async function mergeCustomers(app: AppContext, actor: TransitionActor, customerId: string, duplicateId: string): Promise<Customer> {
  if (customerId === duplicateId) {
    throw Unprocessable('same_customer', 'A customer cannot be merged into itself.', [
      { path: 'body/duplicateCustomerId', message: 'is the customer itself', code: 'same_customer' },
    ]);
  }
  return inTransition(app, actor, async (ctx) => {
    const { trx, now } = ctx;
    const rows = await Customer.query(trx).whereIn('id', [customerId, duplicateId]).orderBy('id').forUpdate();
    const survivor = rows.find((row) => row.id === customerId);
    const duplicate = rows.find((row) => row.id === duplicateId);
    if (!survivor || !duplicate) throw NoSuchCustomer();
    if (survivor.isDeleted || duplicate.isDeleted) throw CustomerDeleted();
    await moveCustomerRows(ctx, duplicateId, customerId);
    await softDeleteCustomer(trx, duplicateId, now);
    return patchCustomer(trx, customerId, { updatedAt: now });
  });
}
