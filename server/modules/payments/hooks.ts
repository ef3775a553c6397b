import { publish, type DomainEvent, type PaymentOutcomeEvent } from '../../domain/events.ts';
import type { TransitionContext } from '../../domain/unitOfWork.ts';

/**
 * A payment's outcome as a domain event, published by the payments commands inside their transaction, after the
 * payment row changed: `payment.captured` (SUCCEEDED), `payment.failed`, `payment.partiallyRefunded`,
 * `payment.refunded`. Other modules subscribe in their records (a referral commission earned or voided, the ad
 * platform's `Purchase` conversion); a subscriber acts through `ctx.trx` and must be idempotent (a replayed
 * callback does not publish again, but a retried job may).
 */
export type PaymentOutcome = 'SUCCEEDED' | 'FAILED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';

const EVENTS: Record<PaymentOutcome, DomainEvent & `payment.${string}`> = {
  SUCCEEDED: 'payment.captured',
  FAILED: 'payment.failed',
  PARTIALLY_REFUNDED: 'payment.partiallyRefunded',
  REFUNDED: 'payment.refunded',
};

export interface PaymentHookContext extends TransitionContext, PaymentOutcomeEvent {
  outcome: PaymentOutcome;
}

/** Publishes the outcome's event in the command's unit of work. */
export async function publishPaymentOutcome(context: PaymentHookContext): Promise<void> {
  const { outcome, paymentId, reservationId, gateway, amountVnd, refundedVnd } = context;
  await publish(context, EVENTS[outcome], { paymentId, reservationId, gateway, amountVnd, refundedVnd });
}
