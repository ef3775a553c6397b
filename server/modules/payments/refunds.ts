import type { AppContext } from '../../platform/context.ts';
import type { PayableRef } from '../../domain/payables.ts';
import type { TransitionContext } from '../../domain/unitOfWork.ts';
import type { Refund } from './models.ts';
import { paidPaymentsOf, refundable } from './queries.ts';
import { requestRefund } from './commands/requestRefund.ts';
import { processVnpayRefund } from './commands/sendVnpayRefund.ts';

/**
 * Gives back everything a payable's payments brought in that is not yet refunded or being refunded, one refund per
 * payment, inside the caller's unit of work (each payment locked by `requestRefund`): a reservation's cancellation
 * (./subscribers.ts), a gift-voucher order refunded by staff. Idempotent: a second run finds nothing left. VNPay
 * refunds wait for the `payments.vnpay-refund` job (after `vnpayJobDelaySeconds`), or are sent right after the commit
 * with `sendRefundsNow`; on-site payments get a PENDING refund staff complete when they hand the money back.
 */
export async function refundPayable(ctx: TransitionContext, payable: PayableRef, request: { reason: string; requestedBy: string; vnpayJobDelaySeconds: number }): Promise<Refund[]> {
  const refunds: Refund[] = [];
  for (const payment of await paidPaymentsOf(ctx.trx, payable)) {
    const left = await refundable(ctx.trx, payment);
    if (left <= 0) continue;
    refunds.push(await requestRefund(ctx, payment.id, { amountVnd: left, reason: request.reason.slice(0, 500), requestedBy: request.requestedBy, onSite: 'pending', vnpayJobDelaySeconds: request.vnpayJobDelaySeconds }));
  }
  return refunds;
}

/**
 * After the commit that requested them: sends the PENDING VNPay refunds now (as the admin refund route does), so staff
 * see VNPay's answer at once. A send that fails leaves its refund PENDING for the job; nothing here throws.
 */
export async function sendRefundsNow(app: AppContext, refunds: readonly Pick<Refund, 'id' | 'status'>[]): Promise<void> {
  for (const refund of refunds) {
    if (refund.status !== 'PENDING') continue;
    try {
      await processVnpayRefund(app, refund.id);
    } catch (err) {
      app.logger.error({ err, refundId: refund.id }, 'sending a requested VNPay refund failed; it stays pending for the retry job');
    }
  }
}
