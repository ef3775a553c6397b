import type { QueueDefinition } from '../../platform/jobs/types.ts';
import { deliverGiftVoucher } from './commands/deliverGiftVoucher.ts';

/** The recipient's e-mail, on the delivery date (./commands/deliverGiftVoucher.ts; enqueued by the order's payment). */
export const GIFT_VOUCHER_DELIVER_QUEUE = 'giftVouchers.deliver';

export interface GiftVoucherDeliverJob {
  orderId: string;
}

export const jobs: QueueDefinition<GiftVoucherDeliverJob>[] = [
  {
    name: GIFT_VOUCHER_DELIVER_QUEUE,
    retryLimit: 8,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 120,
    // Scheduled up to a year ahead: kept a while past its start, in case the server is down that morning.
    retentionMinutes: 30 * 24 * 60,
    async handler(data, job) {
      if (!job.app) throw new Error(`${GIFT_VOUCHER_DELIVER_QUEUE}: the job engine was started without the app's services`);
      return { outcome: await deliverGiftVoucher(job.app, data.orderId) };
    },
  },
];
