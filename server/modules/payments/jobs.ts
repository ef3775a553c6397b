import type { QueueDefinition } from '../../platform/jobs/types.ts';
import { VNPAY_REFUND_QUEUE } from './commands/requestRefund.ts';
import { processVnpayRefund } from './commands/sendVnpayRefund.ts';

/**
 * `payments.vnpay-refund`: sends one pending VNPay refund (enqueued with the refund, in its transaction). A
 * refund already settled is done; one still pending after a run (no trustworthy answer, or another sender holds
 * it) throws, so the engine retries it later with backoff. Idempotent by the refund's status and claim.
 */
export const jobs: QueueDefinition<{ refundId: string }>[] = [
  {
    name: VNPAY_REFUND_QUEUE,
    retryLimit: 12,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 180,
    async handler(data, job) {
      if (!job.app) throw new Error(`${VNPAY_REFUND_QUEUE}: the job engine was started without the app's services`);
      const result = await processVnpayRefund(job.app, data.refundId);
      if (result.status === 'PENDING') throw new Error(result.busy ? 'the refund is being sent by another worker' : 'VNPay gave no trustworthy answer; retrying');
      job.log.info({ refundId: data.refundId, status: result.status }, 'VNPay refund settled');
      return result;
    },
  },
];
