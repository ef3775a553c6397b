import type { AppContext } from '../../../platform/context.ts';
import { Unprocessable } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import type { EmailMessage } from '../../email/index.ts';
import { recordEmail } from '../../email/index.ts';
import { Customer } from '../../booking/index.ts';
import { CustomerDeleted, isCustomersReservation, NoSuchCustomer } from '../queries.ts';

export interface CustomerEmailInput {
  template: 'customer-message';
  subject: string;
  body: string;
  locale?: 'en' | 'vi';
  reservationId?: string;
}

/**
 * Staff write to a customer: the `customer-message` template rendered with their subject and text, in the
 * requested locale (else the customer's, else `en`), recorded QUEUED in the ledger linked to the customer (and
 * to one of its reservations when named) with its send job, in one transaction. A deleted customer is not
 * written to (409 `customer_deleted`).
 */
export async function sendCustomerEmail(app: AppContext, customerId: string, input: CustomerEmailInput): Promise<EmailMessage> {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const customer = await Customer.query(trx).findById(customerId);
    if (!customer) throw NoSuchCustomer();
    if (customer.isDeleted) throw CustomerDeleted();
    if (input.reservationId && !(await isCustomersReservation(trx, customerId, input.reservationId))) {
      throw Unprocessable('unknown_reservation', 'The reservation is not one of this customer’s.', [
        { path: 'body/reservationId', message: 'is not a reservation of this customer', code: 'unknown_reservation' },
      ]);
    }
    return recordEmail(
      trx,
      {
        template: input.template,
        to: customer.email,
        locale: input.locale ?? customer.locale,
        customerId,
        reservationId: input.reservationId ?? null,
        data: { guestName: [customer.honorific, customer.name].filter(Boolean).join(' '), subject: input.subject.trim(), body: input.body },
      },
      { enqueue: (queue, data, options) => app.jobs.enqueue(queue, data, options), emailFrom: app.config.emailFrom },
    );
  });
}
