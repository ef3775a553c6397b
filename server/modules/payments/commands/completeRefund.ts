import type { AppContext } from '../../../platform/context.ts';
import { Conflict, NotFound } from '../../../platform/http/problem.ts';
import { inTransition, type TransitionContext } from '../../../domain/unitOfWork.ts';
import { ON_SITE_GATEWAYS, Payment, Refund } from '../models.ts';
import { settleRefund } from './settleRefund.ts';

/** `completeRefund` (admin): staff gave back the money of a pending on-site refund (idempotent). One unit of work. */
export async function completeRefund(app: AppContext, actor: TransitionContext['actor'], refundId: string): Promise<Refund> {
  return inTransition(app, actor, async (ctx) => {
    const refund = await Refund.query(ctx.trx).findById(refundId).select('status', 'payment_id');
    if (!refund) throw NotFound('No such refund.');
    const payment = (await Payment.query(ctx.trx).findById(refund.paymentId).select('gateway'))!;
    if (!ON_SITE_GATEWAYS.includes(payment.gateway)) throw Conflict('refund_via_gateway', 'A VNPay refund is sent to VNPay by the server; it cannot be completed by hand.');
    if (refund.status === 'FAILED') throw Conflict('refund_not_pending', 'This refund failed; request a new one.');
    return settleRefund(ctx, refundId, { status: 'SUCCEEDED' });
  });
}
