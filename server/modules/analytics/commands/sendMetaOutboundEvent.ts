import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Unprocessable } from '../../../platform/http/problem.ts';
import { metaEnabled } from '../meta.ts';
import { throttleMetaEvent } from '../throttle.ts';
import { queueMetaEvent } from './queueMetaEvent.ts';

export type SendMetaOutboundEventInput = operations['sendMetaOutboundEvent']['requestBody']['content']['application/json'];

/** Longest a browser event may be late (Meta accepts events up to 7 days old) or early (clock skew). */
const MAX_EVENT_AGE_SECONDS = 7 * 24 * 3600;
const MAX_EVENT_SKEW_SECONDS = 300;

/**
 * A browser's Meta event (throttled per client address): checked for its time, then queued (outbox row and job,
 * one unit of work) unless the integration is off. Answers whether it was queued.
 */
export async function sendMetaOutboundEvent(
  app: AppContext,
  body: SendMetaOutboundEventInput,
  client: { ip: string; userAgent: string },
): Promise<{ eventId: string; queued: boolean }> {
  await throttleMetaEvent(app, client.ip);
  const now = Math.floor(Date.now() / 1000);
  const eventTime = body.eventTime ?? now;
  if (eventTime < now - MAX_EVENT_AGE_SECONDS || eventTime > now + MAX_EVENT_SKEW_SECONDS) {
    throw Unprocessable('event_time_out_of_range', 'eventTime must be within the last 7 days.', [
      { path: 'body/eventTime', message: 'more than 7 days old or in the future', code: 'event_time_out_of_range' },
    ]);
  }
  if (!metaEnabled(app)) return { eventId: body.eventId, queued: false };
  const custom = body.customData ?? {};
  const customData: Record<string, unknown> = {};
  if (custom.value !== undefined) {
    customData.value = custom.value;
    customData.currency = 'VND';
  } else if (custom.currency) customData.currency = custom.currency;
  if (custom.contentName) customData.content_name = custom.contentName;
  if (custom.contentIds?.length) customData.content_ids = custom.contentIds;
  await queueMetaEvent(app, {
    eventName: body.eventName,
    eventId: body.eventId,
    source: 'BROWSER',
    eventTime,
    actionSource: 'website',
    eventSourceUrl: body.eventSourceUrl,
    contact: body.userData ?? {},
    client: { ip: client.ip, userAgent: client.userAgent.slice(0, 1000) || undefined, fbp: body.fbp, fbc: body.fbc },
    customData,
  });
  return { eventId: body.eventId, queued: true };
}
