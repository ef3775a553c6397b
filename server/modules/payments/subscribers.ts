import { subscriber } from '../../domain/events.ts';
import { RESERVATION_PAYABLE } from '../booking/index.ts';
import { requestRefund } from './commands/requestRefund.ts';
import { paidPaymentsOf, refundable } from './queries.ts';

/**
 * What a reservation's cancellation does to its payments, whoever cancels (the guest, staff, a cancelled show
 * event): a refund of whatever was paid and is not yet refunded or being refunded, per payment, in the
 * cancelling transaction (the reservation is already locked; each payment is locked by `requestRefund`).
 * Idempotent: a second run finds nothing left. VNPay refunds are sent by the `payments.vnpay-refund` job;
 * on-site payments get a PENDING refund staff complete when they hand the money back.
 */
export const cancellationRefunds = subscriber({
  name: 'payments.refunds',
  event: 'reservation.cancelled',
  phase: 'in-transaction',
  order: 10,
  async handle({ reservationId, reason }, ctx) {
    for (const payment of await paidPaymentsOf(ctx.trx, { kind: RESERVATION_PAYABLE, id: reservationId })) {
      const left = await refundable(ctx.trx, payment);
      if (left <= 0) continue;
      await requestRefund(ctx, payment.id, {
        amountVnd: left,
        reason: `reservation_cancelled${reason ? `: ${reason}` : ''}`.slice(0, 500),
        requestedBy: 'SYSTEM',
        onSite: 'pending',
        vnpayJobDelaySeconds: 0,
      });
    }
  },
});
