import type { Schema } from '../../platform/http/handler.ts';
import { iso } from '../presenting.ts';
import type { GiftVoucherOrder } from './models.ts';
import type { OrderListRow } from './queries.ts';
import { effectiveOrderStatus } from './rules.ts';

/** The order as its buyer's browser reads it (allow-list): its state, never a name, an e-mail or the voucher's code. */
export function presentPublicOrder(order: GiftVoucherOrder, now: Date): Schema<'PublicGiftVoucherOrder'> {
  return { reference: order.reference, status: effectiveOrderStatus(order, now), amountVnd: order.amountVnd, deliveryDate: order.deliveryDate, payBy: iso(order.payBy)! };
}

/** The order as staff see it (allow-list), with its voucher's code and balance. */
export function presentOrder(row: OrderListRow, now: Date): Schema<'GiftVoucherOrder'> {
  const { order } = row;
  return {
    id: order.id,
    reference: order.reference,
    status: effectiveOrderStatus(order, now),
    amountVnd: order.amountVnd,
    buyerName: order.buyerName,
    buyerEmail: order.buyerEmail,
    recipientName: order.recipientName,
    recipientEmail: order.recipientEmail,
    message: order.message,
    deliveryDate: order.deliveryDate,
    locale: order.locale,
    voucherId: order.voucherId,
    voucherCode: row.voucherCode,
    voucherRemainingVnd: row.voucherRemainingVnd,
    payBy: iso(order.payBy)!,
    paidAt: iso(order.paidAt),
    deliveredAt: iso(order.deliveredAt),
    refundedAt: iso(order.refundedAt),
    createdAt: iso(order.createdAt)!,
  };
}
