import type { Payable, PayableState } from '../../domain/payables.ts';
import { actorLabel } from '../../domain/actors.ts';
import { publish, type DomainContext } from '../../domain/events.ts';
import { getCommercialSetup } from '../commercialSetup/index.ts';
import { recordEmail } from '../email/index.ts';
import { issueVoucher, voidVoucherIfUnused } from '../vouchers/index.ts';
import { GIFT_VOUCHER_DELIVER_QUEUE } from './jobs.ts';
import { GiftVoucherOrder } from './models.ts';
import { lockOrder } from './queries.ts';
import { deliveryStart, effectiveOrderStatus, voucherExpiry } from './rules.ts';

/** The payable kind of a gift-voucher order (`payments.payable_kind`). */
export const VOUCHER_ORDER_PAYABLE = 'voucher_order';

/**
 * A gift-voucher order as the payments module settles it (server/domain/payables.ts; issue 36 §1), declared in the
 * giftVouchers module's record. Paid online only (VNPay, or the development sandbox): its payment issues the voucher,
 * e-mails the buyer's receipt, schedules the recipient's e-mail for the delivery date and publishes `voucher.sold`,
 * all in the payment's unit of work — a replayed IPN finds the order PAID and changes nothing (payments refunds a
 * second payment that arrives for it). A PENDING order past its deadline still takes a late payment (nothing is
 * scarce: the voucher is issued as for one in time); a REFUNDED one does not.
 */
export const voucherOrderPayable: Payable = {
  kind: VOUCHER_ORDER_PAYABLE,
  noun: 'gift-voucher order',

  async lock(ctx, id) {
    const order = await lockOrder(ctx.trx, id);
    return order ? standing(order, ctx.now) : undefined;
  },

  async view(knex, id) {
    const order = await GiftVoucherOrder.query(knex).findById(id);
    return order ? standing(order, new Date()) : undefined;
  },

  async onPaid(ctx, payable, payment) {
    const order = (await GiftVoucherOrder.query(ctx.trx).findById(payable.id))!;
    if (order.status === 'PAID') return 'already_paid: the gift voucher was already paid';
    if (order.status === 'REFUNDED') return 'gift_voucher_order_not_payable: the gift-voucher order was refunded';
    if (payment.paidBeforeVnd + payment.amountVnd < order.amountVnd) return null;
    await sellVoucher(ctx, order, payment.paymentId);
    return null;
  },

  /**
   * A refund of the order's payment succeeded. Staff's own refund (refundGiftVoucherOrder) has already voided the
   * voucher and marked the order; a full refund through payments' generic route does the same here, so money never
   * goes back while its voucher still pays — unless the voucher was used meanwhile, which is left to staff (logged).
   */
  async onRefunded(ctx, orderId, payment) {
    if (payment.refundedVnd < payment.amountVnd) return;
    const order = await lockOrder(ctx.trx, orderId);
    if (!order || order.status !== 'PAID' || !order.voucherId) return;
    if (!(await voidVoucherIfUnused(ctx.trx, order.voucherId, ctx.now))) {
      ctx.app.logger.warn({ orderId, paymentId: payment.paymentId }, 'a gift voucher order was refunded in full after its voucher was used; the voucher keeps what is left');
      return;
    }
    await GiftVoucherOrder.query(ctx.trx).findById(order.id).patch({ status: 'REFUNDED', refundedAt: ctx.now, refundedBy: actorLabel(ctx.actor), updatedAt: ctx.now });
  },
};

/** The paid order's effects: the voucher, the receipt, the recipient's e-mail on its day, `voucher.sold`. */
async function sellVoucher(ctx: DomainContext, order: GiftVoucherOrder, paymentId: string): Promise<void> {
  const { trx, app, now } = ctx;
  const zone = app.config.venueTimezone;
  const setup = await getCommercialSetup(trx);
  const expiresAt = voucherExpiry(now, setup.giftVoucherValidityMonths, zone);
  const voucher = await issueVoucher(
    trx,
    { valueVnd: order.amountVnd, expiresAt, recipientName: order.recipientName, recipientEmail: order.recipientEmail, note: `Gift voucher ${order.reference} from ${order.buyerName}`, createdBy: `gift-voucher-order:${order.reference}` },
    now,
  );
  await GiftVoucherOrder.query(trx).findById(order.id).patch({ status: 'PAID', voucherId: voucher.id, paidAt: now, updatedAt: now });
  await recordEmail(
    trx,
    {
      template: 'gift-voucher-receipt',
      to: order.buyerEmail,
      locale: order.locale,
      data: {
        buyerName: order.buyerName,
        recipientName: order.recipientName,
        recipientEmail: order.recipientEmail,
        orderReference: order.reference,
        amountVnd: order.amountVnd,
        deliveryDate: order.deliveryDate,
        expiresAt,
        message: order.message,
      },
    },
    { enqueue: app.jobs.enqueue.bind(app.jobs), emailFrom: app.config.emailFrom, timeZone: zone },
  );
  await app.jobs.enqueue(GIFT_VOUCHER_DELIVER_QUEUE, { orderId: order.id }, { trx, startAfter: deliveryStart(order.deliveryDate, zone, now) });
  await publish(ctx, 'voucher.sold', { orderId: order.id, reference: order.reference, voucherId: voucher.id, amountVnd: order.amountVnd, expiresAt, deliveryDate: order.deliveryDate, paymentId });
}

/** What payments needs of an order (`now`: the unit of work's clock, or the read's). */
function standing(order: GiftVoucherOrder, now: Date): PayableState {
  const status = effectiveOrderStatus(order, now);
  return {
    id: order.id,
    totalVnd: order.amountVnd,
    currency: 'VND',
    reference: order.reference,
    txnRefPrefix: order.reference.replace(/[^A-Z0-9]/g, ''),
    orderInfo: `Thanh toan phieu qua tang ${order.reference}`,
    refundInfo: `Hoan tien phieu qua tang ${order.reference}`,
    locale: order.locale,
    payBy: new Date(order.payBy),
    // The site's return page reads the order's own status (getPublicGiftVoucherOrder); the return's is a reservation's.
    status: null,
    reservationId: null,
    refusal(channel) {
      if (channel === 'desk') return { code: 'payment_method_unavailable', detail: 'A gift voucher is paid online.' };
      if (status === 'EXPIRED') return { code: 'gift_voucher_order_expired', detail: 'This gift-voucher order was not paid in time; order again.' };
      if (status !== 'PENDING') return { code: 'nothing_to_pay', detail: 'This gift-voucher order is already paid.' };
      return null;
    },
  };
}
