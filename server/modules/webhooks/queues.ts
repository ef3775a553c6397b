/** The webhooks module's job queue (./jobs.ts handles it; the subscribers, retries and redeliveries enqueue onto it). */
export const WEBHOOK_DELIVER_QUEUE = 'webhooks.deliver';

export interface WebhookDeliverJob {
  messageId: string;
}
