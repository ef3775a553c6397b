import { subscriber } from '../../domain/events.ts';
import { expireEntriesOfCancelledEvent } from './commands/expireEntriesOfCancelledEvent.ts';
import { queueNotifyNext } from './commands/queueNotifyNext.ts';
import { eventOfReservation, eventsWithWaitingOf, moveCustomerEntries } from './queries.ts';

/**
 * The waiting list's part in other flows (declared in the module's record, server/modules/waitlist/index.ts):
 * - seats freed (a reservation cancelled, holds expired): the notify job is queued for the event;
 * - an event cancelled: its WAITING and NOTIFIED entries expire;
 * - two customers merged: the duplicate's entries move to the survivor.
 * (Booking through an offer link: ./commands/claimOffer.ts, the record's `seatClaims`.)
 */
export const subscribers = [
  subscriber({
    name: 'waitlist.move-on-customer-merge',
    event: 'customer.merged',
    phase: 'in-transaction',
    order: 10,
    async handle({ fromCustomerId, toCustomerId }, ctx) {
      await moveCustomerEntries(ctx.trx, fromCustomerId, toCustomerId);
    },
  }),
  subscriber({
    name: 'waitlist.seats-freed-on-cancel',
    event: 'reservation.cancelled',
    phase: 'in-transaction',
    order: 40,
    async handle({ reservationId }, ctx) {
      await queueNotifyNext(ctx.app.jobs, ctx.trx, [await eventOfReservation(ctx.trx, reservationId)]);
    },
  }),
  subscriber({
    name: 'waitlist.seats-freed-on-expiry',
    event: 'holds.expired',
    phase: 'in-transaction',
    order: 40,
    async handle({ reservationIds }, ctx) {
      await queueNotifyNext(ctx.app.jobs, ctx.trx, await eventsWithWaitingOf(ctx.trx, reservationIds));
    },
  }),
  // Named as the cancellation flow's reply reports it (`hooks[].name`).
  subscriber({
    name: 'waitlist',
    event: 'showEvent.cancelled',
    phase: 'in-transaction',
    order: 20,
    async handle({ event }, ctx) {
      return { waitlistEntriesExpired: await expireEntriesOfCancelledEvent(ctx.trx, event.id, new Date()) };
    },
  }),
];
