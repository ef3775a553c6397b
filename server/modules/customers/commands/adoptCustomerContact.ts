import type { Knex } from 'knex';
import { NotFound, Unprocessable } from '../../../platform/http/problem.ts';
import { CustomerDeleted, type CustomerRow } from '../service.ts';

export type AdoptableField = 'honorific' | 'name' | 'phone';

/**
 * Copies the contact a reservation of the customer was booked with into the customer record (issue 21 §1: a
 * guest's input never changes an existing customer by itself; staff adopt it once they trust it). The chosen
 * fields only (default honorific, name, phone); the e-mail is the customer's key and stays.
 */
export async function adoptCustomerContact(knex: Knex, customerId: string, input: { reservationId: string; fields?: AdoptableField[] }): Promise<CustomerRow> {
  const fields = input.fields ?? ['honorific', 'name', 'phone'];
  return knex.transaction(async (trx) => {
    const customer = (await trx('customers').where({ id: customerId }).forUpdate().first()) as CustomerRow | undefined;
    if (!customer) throw NotFound('No such customer.');
    if (customer.is_deleted) throw CustomerDeleted();
    const booked = await trx('reservations').where({ id: input.reservationId }).first('customer_id', 'contact_honorific', 'contact_name', 'contact_phone');
    if (!booked || booked.customer_id !== customerId) {
      throw Unprocessable('reservation_not_customers', "The reservation is not one of this customer's.", [
        { path: 'body/reservationId', message: "is not one of this customer's reservations", code: 'reservation_not_customers' },
      ]);
    }
    const changes: Record<string, unknown> = {};
    for (const field of fields) changes[field] = booked[`contact_${field}`];
    const [updated] = (await trx('customers')
      .where({ id: customerId })
      .update({ ...changes, updated_at: trx.fn.now() })
      .returning('*')) as CustomerRow[];
    return updated;
  });
}
