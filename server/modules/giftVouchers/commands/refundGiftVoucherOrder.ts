import type { AppContext } from '../../../platform/context.ts';
import { Conflict } from '../../../platform/http/problem.ts';
import { actorLabel, inTransition, type TransitionContext } from '../../../domain/unitOfWork.ts';
import { claimSeconds, refundPayable, sendRefundsNow } from '../../payments/index.ts';
import { voidVoucherIfUnused } from '../../vouchers/index.ts';
import { GiftVoucherOrder } from '../models.ts';
import { VOUCHER_ORDER_PAYABLE } from '../payable.ts';
import { lockOrder, NoSuchOrder } from '../queries.ts';

/**
 * Staff refund a paid gift voucher nobody has used (issue 36 §1), in one unit of work: the order locked, its voucher
 * voided by one conditional update (ACTIVE, the whole value left, never redeemed — else 409 `gift_voucher_used`, and
 * nothing changes), the order REFUNDED, and payments' refund of what its payments brought in requested; VNPay's
 * refund is sent right after the commit (the payments job is the fallback). A refunded order's recipient e-mail, if
 * still to come, is not sent (the delivery job finds it REFUNDED).
 */
export async function refundGiftVoucherOrder(app: AppContext, actor: TransitionContext['actor'], orderId: string, reason: string | undefined): Promise<GiftVoucherOrder> {
  const { order, refunds } = await inTransition(app, actor, async (ctx) => {
    const locked = await lockOrder(ctx.trx, orderId);
    if (!locked) throw NoSuchOrder();
    if (locked.status !== 'PAID' || !locked.voucherId) throw Conflict('gift_voucher_order_not_refundable', `A ${locked.status.toLowerCase()} gift-voucher order cannot be refunded.`);
    if (!(await voidVoucherIfUnused(ctx.trx, locked.voucherId, ctx.now))) {
      throw Conflict('gift_voucher_used', 'The gift voucher has been used (a booking took credit from it); it can no longer be refunded.');
    }
    const by = actorLabel(actor);
    const requested = await refundPayable(ctx, { kind: VOUCHER_ORDER_PAYABLE, id: locked.id }, { reason: `gift_voucher_refunded${reason ? `: ${reason}` : ''}`, requestedBy: by, vnpayJobDelaySeconds: claimSeconds(app) });
    const refunded = await GiftVoucherOrder.query(ctx.trx).patchAndFetchById(locked.id, { status: 'REFUNDED', refundedAt: ctx.now, refundedBy: by, updatedAt: ctx.now });
    return { order: refunded, refunds: requested };
  });
  await sendRefundsNow(app, refunds);
  return order;
}
