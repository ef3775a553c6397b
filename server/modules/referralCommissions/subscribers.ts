import { subscriber } from '../../domain/events.ts';
import { earnCommission } from './commands/earnCommission.ts';
import { voidCommission } from './commands/voidCommission.ts';

/**
 * What a referral earns and loses when its booking's money moves (declared in the module's record): a commission
 * is created `PENDING` when the reservation's payment succeeds, inside the payment's transaction; it is voided
 * when the booking is cancelled or fully refunded before payout.
 */
export const subscribers = [
  subscriber({
    name: 'referrals.earn-commission',
    event: 'payment.captured',
    phase: 'in-transaction',
    order: 20,
    // A referral earns on a reservation's payment only (another payable, a gift voucher, has no referral).
    handle: ({ reservationId, paymentId }, ctx) => (reservationId ? earnCommission(ctx.trx, reservationId, paymentId, ctx.now) : undefined),
  }),
  subscriber({
    name: 'referrals.void-on-refund',
    event: 'payment.refunded',
    phase: 'in-transaction',
    order: 10,
    handle: ({ reservationId }, ctx) => (reservationId ? voidCommission(ctx.trx, reservationId, 'refunded', ctx.now) : undefined),
  }),
  subscriber({
    name: 'referrals.void-on-cancel',
    event: 'reservation.cancelled',
    phase: 'in-transaction',
    order: 50,
    handle: ({ reservationId }, ctx) => voidCommission(ctx.trx, reservationId, 'cancelled', ctx.now),
  }),
];
