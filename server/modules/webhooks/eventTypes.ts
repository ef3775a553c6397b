import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Schema } from '../../platform/http/handler.ts';

/**
 * The webhooks module's rules (issue 36 §3), no database: the event types it sends, the retry schedule, the disabling
 * rule, and the secrets and signatures of Standard Webhooks.
 */

export type WebhookEventType = Schema<'WebhookEventType'>;

/** Every event type, in the contract's order (`WebhookEventType`). */
export const WEBHOOK_EVENT_TYPES = [
  'reservation.confirmed',
  'reservation.cancelled',
  'reservation.checked_in',
  'reservation.no_show',
  'payment.succeeded',
  'payment.refunded',
  'inquiry.received',
  'waitlist.offer_made',
  'voucher.redeemed',
  'voucher.sold',
] as const satisfies readonly WebhookEventType[];

/** The body every attempt of a message sends (the contract's `WebhookEvent`). */
export type WebhookBody = Schema<'WebhookEvent'>;

/**
 * The delay before the next attempt after the `failedInRound`-th failed attempt since the message was queued (its
 * first delivery or its last manual redelivery), or undefined when the schedule is spent: the message has FAILED.
 */
export function retryDelaySeconds(schedule: readonly number[], failedInRound: number): number | undefined {
  return failedInRound >= 1 ? schedule[failedInRound - 1] : undefined;
}

/** Whether an endpoint whose attempts have all failed since `failingSince` is to be disabled now (0 hours: never). */
export function failedLongEnough(failingSince: Date, now: Date, disableAfterHours: number): boolean {
  return disableAfterHours > 0 && now.getTime() - failingSince.getTime() >= disableAfterHours * 3_600_000;
}

/** A signing secret as Standard Webhooks writes it: `whsec_` and the base64 of 32 random bytes (the spec: 24 to 64). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * `webhook-signature` for one attempt: `v1,<signature>` with each secret (the new one first during a rotation's
 * overlap), space-separated, as the spec allows; signed by the `standardwebhooks` library itself, the one receivers
 * verify with.
 */
export function signatureHeader(secrets: readonly string[], messageId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' ');
}
