import type { AppContext } from '../../../platform/context.ts';
import { checkoutPayable } from '../../payments/index.ts';
import type { GiftVoucherOrder } from '../models.ts';
import { VOUCHER_ORDER_PAYABLE } from '../payable.ts';

/**
 * The buyer pays an order (issue 36 §1): payments' checkout for the `voucher_order` payable — a PENDING VNPay payment
 * and its signed URL (the development sandbox's page when it is on), in payments' own unit of work, the order locked
 * by its payable. Its refusals are the payable's (`gift_voucher_order_expired`, `nothing_to_pay`).
 */
export async function startGiftVoucherCheckout(app: AppContext, order: GiftVoucherOrder, input: { method: 'VNPAY'; locale?: 'vn' | 'en'; bankCode?: string }, ip: string, baseUrl: string) {
  const answer = await checkoutPayable(app, { kind: VOUCHER_ORDER_PAYABLE, id: order.id }, input, ip, baseUrl);
  return { reference: answer.reference, amountVnd: answer.amountVnd, paymentId: answer.paymentId!, vnpay: answer.vnpay! };
}
