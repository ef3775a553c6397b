import { subscriber } from '../../domain/events.ts';
import { RESERVATION_PAYABLE } from '../booking/index.ts';
import { refundPayable } from './refunds.ts';

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
    await refundPayable(ctx, { kind: RESERVATION_PAYABLE, id: reservationId }, { reason: `reservation_cancelled${reason ? `: ${reason}` : ''}`, requestedBy: 'SYSTEM', vnpayJobDelaySeconds: 0 });
  },
});
