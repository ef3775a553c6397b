import { createHash } from 'node:crypto';
import type { AppContext } from '../../platform/context.ts';
import { buildUserData, isMetaConfigured, type ClientFields, type ContactFields } from '../../platform/integrations/metaCapi.ts';
import { subscriber } from '../../domain/events.ts';
import { queueMetaEvent } from './commands/queueMetaEvent.ts';
import { purchaseFacts } from './queries.ts';

/**
 * Meta Conversions API events (issue 11): the browser's landing (`POST /api/analytics/meta/outbound-event`) and
 * our own `Purchase` (a payment succeeded) and `Lead` (a lead was captured) go through one durable queue.
 *
 * What one event needs (hashed user data, address, agent) is written to `meta_capi_outbox` together with a job
 * that names only the row's id, in one transaction; the job sends it, writes an audit row per attempt
 * (`meta_capi_events`: no user data) and deletes the outbox row once done — sent, refused (4xx: never retried)
 * or out of attempts. Nothing is written while the integration is off (META_PIXEL_ID or META_CAPI_ACCESS_TOKEN
 * unset).
 */

export const META_SEND_QUEUE = 'meta.send-event';
/** 5 attempts: at once, then about 30 s, 1, 2 and 4 minutes later. */
export const META_SEND_RETRY_LIMIT = 4;

export type { MetaSource } from './models.ts';
import type { MetaSource } from './models.ts';

export interface MetaEventInput {
  eventName: string;
  eventId: string;
  source: MetaSource;
  /** Unix seconds. */
  eventTime: number;
  actionSource: 'website' | 'system_generated';
  eventSourceUrl?: string;
  contact?: ContactFields;
  client?: ClientFields;
  customData?: Record<string, unknown>;
}

export const metaEnabled = (app: AppContext): boolean => isMetaConfigured({ pixelId: app.config.metaPixelId, accessToken: app.config.metaCapiAccessToken });

/** Meta's event object (`data[0]`). */
export function metaEvent(input: MetaEventInput): Record<string, unknown> {
  const event: Record<string, unknown> = {
    event_name: input.eventName,
    event_time: input.eventTime,
    event_id: input.eventId,
    action_source: input.actionSource,
    user_data: buildUserData(input.contact ?? {}, input.client ?? {}),
  };
  if (input.eventSourceUrl) event.event_source_url = input.eventSourceUrl;
  if (input.customData && Object.keys(input.customData).length) event.custom_data = input.customData;
  return event;
}

// ---- server-side conversions ------------------------------------------------------------------------------------

/**
 * `Purchase` when a payment succeeds, inside the payment's transaction: value and currency, and the reservation's
 * reference as `event_id`, so the browser pixel's `Purchase` (sent with the same id) deduplicates. The guest's
 * contact, hashed, is the customer's; no browser is involved (an IPN), so `action_source` is `system_generated`.
 */
export const purchaseConversion = subscriber({
  name: 'analytics.meta-purchase',
  event: 'payment.captured',
  phase: 'in-transaction',
  order: 10,
  async handle(payment, ctx) {
    // A reservation's payment only: the pixel's `Purchase` is the booking's (another payable has no pixel event).
    if (!metaEnabled(ctx.app) || !payment.reservationId) return;
    const reservation = await purchaseFacts(ctx.trx, payment.reservationId);
    if (!reservation) return;
    await queueMetaEvent(
      ctx.app,
      {
        eventName: 'Purchase',
        eventId: reservation.reference,
        source: 'SERVER',
        eventTime: Math.floor(ctx.now.getTime() / 1000),
        actionSource: 'system_generated',
        contact: { email: reservation.email, phone: reservation.phone },
        customData: { value: payment.amountVnd, currency: 'VND', ...(reservation.slug ? { content_ids: [reservation.slug] } : {}) },
      },
      ctx.trx,
    );
  },
});

/**
 * `Lead` after a lead capture has committed (called by the booking handler). `event_id` is `lead.` + the lead
 * reference's SHA-256 (hex, first 32 characters): the browser holds the reference and can compute the same id for
 * its pixel event, while the reference itself never leaves the server. Best effort: a failure is logged, the lead
 * stands.
 */
export async function queueLeadConversion(
  app: AppContext,
  input: { leadReference: string; email: string; phone?: string; ip: string; userAgent: string; sourceUrl?: string },
): Promise<void> {
  if (!metaEnabled(app)) return;
  try {
    const eventId = `lead.${createHash('sha256').update(input.leadReference).digest('hex').slice(0, 32)}`;
    const sourceUrl = input.sourceUrl && /^https?:\/\//i.test(input.sourceUrl) ? input.sourceUrl.slice(0, 2000) : undefined;
    await queueMetaEvent(app, {
      eventName: 'Lead',
      eventId,
      source: 'SERVER',
      eventTime: Math.floor(Date.now() / 1000),
      actionSource: sourceUrl ? 'website' : 'system_generated',
      eventSourceUrl: sourceUrl,
      contact: { email: input.email, phone: input.phone },
      client: { ip: input.ip, userAgent: input.userAgent.slice(0, 1000) || undefined },
    });
  } catch (err) {
    app.logger.error({ err }, 'could not queue the Meta Lead conversion');
  }
}

export { queueMetaEvent } from './commands/queueMetaEvent.ts';
export { deliverMetaEvent, type MetaSendOutcome } from './commands/deliverMetaEvent.ts';
