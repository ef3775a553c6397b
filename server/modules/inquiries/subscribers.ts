import { subscriber } from '../../domain/events.ts';
import { moveCustomerInquiries } from './queries.ts';

/**
 * The inquiries module's part in other flows (declared in the module's record, ./module.ts): two customers merged
 * (`customer.merged`, the customers module's mergeCustomers) — the duplicate's inquiries move to the survivor, in the
 * merge's transaction, after the waiting list's entries.
 */
export const subscribers = [
  subscriber({
    name: 'inquiries.move-on-customer-merge',
    event: 'customer.merged',
    phase: 'in-transaction',
    order: 20,
    async handle({ fromCustomerId, toCustomerId }, ctx) {
      await moveCustomerInquiries(ctx.trx, fromCustomerId, toCustomerId);
    },
  }),
];
