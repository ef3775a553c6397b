import { publish, type DomainEvent, type PaymentOutcomeEvent } from '../../domain/events.ts';
import type { Payable, PayableActivity, PayableRef } from '../../domain/payables.ts';
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

export interface PaymentHookContext extends TransitionContext, Omit<PaymentOutcomeEvent, 'payableKind' | 'payableId' | 'reservationId'> {
  outcome: PaymentOutcome;
  payable: PayableRef;
  /** The payment row's `reservation_id` (set when its payable is a reservation's). */
  reservationId: string | null;
}

/** Publishes the outcome's event in the command's unit of work. */
export async function publishPaymentOutcome(context: PaymentHookContext): Promise<void> {
  const { outcome, paymentId, payable, reservationId, gateway, amountVnd, refundedVnd } = context;
  await publish(context, EVENTS[outcome], { paymentId, payableKind: payable.kind, payableId: payable.id, ...(reservationId ? { reservationId } : {}), gateway, amountVnd, refundedVnd });
}

/** The payable's analytics of this payment activity (today's business events), after the commit. */
export function trackAfterCommit(ctx: TransitionContext, payable: Payable, payableId: string, activity: PayableActivity, properties: Record<string, unknown>): void {
  const track = payable.track;
  if (track) ctx.afterCommit(() => track.call(payable, ctx, payableId, activity, properties));
}
