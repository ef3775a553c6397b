import type { AppContext } from '../../../platform/context.ts';
import { NotFound, Unprocessable } from '../../../platform/http/problem.ts';
import type { EmailMessage } from '../../email/index.ts';
import { recordEmail } from '../../email/index.ts';
import { CustomerDeleted, type CustomerRow } from '../service.ts';

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
  return app.db.knex.transaction(async (trx) => {
    const customer = (await trx('customers').where({ id: customerId }).first()) as CustomerRow | undefined;
    if (!customer) throw NotFound('No such customer.');
    if (customer.is_deleted) throw CustomerDeleted();
    if (input.reservationId && !(await trx('reservations').where({ id: input.reservationId, customer_id: customerId }).first('id'))) {
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
