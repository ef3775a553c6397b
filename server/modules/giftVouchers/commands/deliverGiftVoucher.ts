import type { AppContext } from '../../../platform/context.ts';
import { inTransition } from '../../../domain/unitOfWork.ts';
import { siteRoutes } from '../../assistantCatalog/index.ts';
import { displayName, recordEmail } from '../../email/index.ts';
import { findVoucherOrFail } from '../../vouchers/index.ts';
import { GiftVoucherOrder } from '../models.ts';
import { giftVoucherPdf } from '../printable.ts';
import { lockOrder } from '../queries.ts';

/**
 * The recipient's e-mail on the delivery date (the `giftVouchers.deliver` job, scheduled by the order's payment for
 * 08:00 venue time that day, or at once): the code, the amount, the message and the printable voucher (PDF). Written
 * once: an order already delivered, refunded or unpaid is left alone, so a retried or repeated job sends nothing
 * twice. The e-mail itself goes through the e-mail module's ledger and its send queue.
 */
export async function deliverGiftVoucher(app: AppContext, orderId: string): Promise<'delivered' | 'skipped'> {
  return inTransition(app, 'SYSTEM', async ({ trx, now }) => {
    const order = await lockOrder(trx, orderId);
    if (!order || order.status !== 'PAID' || order.deliveredAt || !order.voucherId) return 'skipped';
    const voucher = await findVoucherOrFail(order.voucherId, trx);
    const locale = order.locale.toLowerCase().startsWith('vi') ? 'vi' : 'en';
    const zone = app.config.venueTimezone;
    const expiresAt = new Date(voucher.expiresAt);
    // The last valid day: the expiry is the start of the day after it.
    const validUntil = new Intl.DateTimeFormat(locale === 'vi' ? 'vi-VN' : 'en-GB', { timeZone: zone, dateStyle: 'long' }).format(new Date(expiresAt.getTime() - 1));
    const bookUrl = siteRoutes(app.config.publicSiteUrl, locale).pages.shows;
    const pdf = await giftVoucherPdf({
      venueName: displayName(app.config.emailFrom),
      locale,
      recipientName: order.recipientName,
      buyerName: order.buyerName,
      amountVnd: voucher.initialValueVnd,
      code: voucher.code,
      message: order.message,
      validUntil,
      bookUrl,
    });
    const pdfFilename = `gift-voucher-${order.reference}.pdf`;
    await recordEmail(
      trx,
      {
        template: 'gift-voucher-delivery',
        to: order.recipientEmail,
        locale,
        data: { recipientName: order.recipientName, buyerName: order.buyerName, voucherCode: voucher.code, amountVnd: voucher.initialValueVnd, expiresAt: new Date(expiresAt.getTime() - 1), message: order.message, bookUrl, pdfFilename },
        attachments: [{ filename: pdfFilename, contentType: 'application/pdf', content: pdf }],
      },
      { enqueue: app.jobs.enqueue.bind(app.jobs), emailFrom: app.config.emailFrom, timeZone: zone },
    );
    await GiftVoucherOrder.query(trx).findById(order.id).patch({ deliveredAt: now, updatedAt: now });
    return 'delivered';
  });
}
