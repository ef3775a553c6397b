import type { AppContext } from '../../../platform/context.ts';
import { actorLabel, inTransition, type TransitionContext } from '../../../domain/unitOfWork.ts';
import { Refund } from '../models.ts';
import { claimSeconds, requestRefund } from './requestRefund.ts';
import { processVnpayRefund } from './sendVnpayRefund.ts';

/**
 * `createRefund` (admin): requests the refund in one unit of work (an on-site payment's is recorded SUCCEEDED at
 * once) and, for VNPay, sends it right after the commit (the `payments.vnpay-refund` job is the fallback, also when
 * that send fails: the answer is the refund as recorded).
 */
export async function createRefund(app: AppContext, actor: TransitionContext['actor'], paymentId: string, input: { amountVnd: number; reason: string }): Promise<Refund> {
  const refund = await inTransition(app, actor, (ctx) =>
    requestRefund(ctx, paymentId, { amountVnd: input.amountVnd, reason: input.reason, requestedBy: actorLabel(actor), onSite: 'record', vnpayJobDelaySeconds: claimSeconds(app) }),
  );
  if (refund.status !== 'PENDING') return refund;
  // After the commit the refund exists: nothing here may turn that into an error (issue 32 §4). A send that fails
  // leaves it PENDING for the `payments.vnpay-refund` job, as a time-out does.
  try {
    await processVnpayRefund(app, refund.id);
    return (await Refund.query(app.db.knex).findById(refund.id)) ?? refund;
  } catch (err) {
    app.logger.error({ err, refundId: refund.id }, 'sending a recorded VNPay refund failed; it stays pending for the retry job');
    return refund;
  }
}
