import type { AppContext } from '../../../platform/context.ts';
import { Unprocessable } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { type Customer, patchCustomer } from '../../booking/index.ts';
import { bookedContactOf, CustomerDeleted, lockCustomer } from '../queries.ts';

export type AdoptableField = 'honorific' | 'name' | 'phone';

/**
 * Copies the contact a reservation of the customer was booked with into the customer record (issue 21 §1: a
 * guest's input never changes an existing customer by itself; staff adopt it once they trust it). The chosen
 * fields only (default honorific, name, phone); the e-mail is the customer's key and stays.
 */
export async function adoptCustomerContact(app: AppContext, customerId: string, input: { reservationId: string; fields?: AdoptableField[] }): Promise<Customer> {
  const fields = input.fields ?? ['honorific', 'name', 'phone'];
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const customer = await lockCustomer(trx, customerId);
    if (customer.isDeleted) throw CustomerDeleted();
    const booked = await bookedContactOf(trx, input.reservationId);
    if (!booked || booked.customerId !== customerId) {
      throw Unprocessable('reservation_not_customers', "The reservation is not one of this customer's.", [
        { path: 'body/reservationId', message: "is not one of this customer's reservations", code: 'reservation_not_customers' },
      ]);
    }
    const changes: Partial<Pick<Customer, AdoptableField>> = {};
    for (const field of fields) Object.assign(changes, { [field]: booked[field] });
    return patchCustomer(trx, customerId, changes);
  });
}
