import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { Unprocessable } from '../../platform/http/problem.ts';
import { metaEnabled, queueMetaEvent } from './meta.ts';
import { customerIntelligence, readAggregate, resolveRange, summary, topShows } from './service.ts';
import { throttleMetaEvent } from './throttle.ts';

/** Longest a browser event may be late (Meta accepts events up to 7 days old) or early (clock skew). */
const MAX_EVENT_AGE_SECONDS = 7 * 24 * 3600;
const MAX_EVENT_SKEW_SECONDS = 300;

export const handlers = {
  async getAnalyticsSummary(call) {
    const range = resolveRange(call.query, call.app.config.venueTimezone);
    return json(200, await summary(call.app.db, range));
  },

  async getAnalyticsTopShows(call) {
    const range = resolveRange(call.query, call.app.config.venueTimezone);
    return json(200, await readAggregate(call.app.db.knex, (trx) => topShows(trx, range, call.query.sort ?? 'revenue', call.query.limit ?? 10, call.app.config.defaultLocale)));
  },

  async getCustomerIntelligence(call) {
    const range = resolveRange(call.query, call.app.config.venueTimezone);
    return json(200, await customerIntelligence(call.app.db, range, call.app.config.defaultLocale));
  },

  async sendMetaOutboundEvent(call) {
    await throttleMetaEvent(call.app, call.ip);
    const body = call.body;
    const now = Math.floor(Date.now() / 1000);
    const eventTime = body.eventTime ?? now;
    if (eventTime < now - MAX_EVENT_AGE_SECONDS || eventTime > now + MAX_EVENT_SKEW_SECONDS) {
      throw Unprocessable('event_time_out_of_range', 'eventTime must be within the last 7 days.', [
        { path: 'body/eventTime', message: 'more than 7 days old or in the future', code: 'event_time_out_of_range' },
      ]);
    }
    if (!metaEnabled(call.app)) return json(202, { eventId: body.eventId, queued: false });
    const custom = body.customData ?? {};
    const customData: Record<string, unknown> = {};
    if (custom.value !== undefined) {
      customData.value = custom.value;
      customData.currency = 'VND';
    } else if (custom.currency) customData.currency = custom.currency;
    if (custom.contentName) customData.content_name = custom.contentName;
    if (custom.contentIds?.length) customData.content_ids = custom.contentIds;
    await queueMetaEvent(call.app, {
      eventName: body.eventName,
      eventId: body.eventId,
      source: 'BROWSER',
      eventTime,
      actionSource: 'website',
      eventSourceUrl: body.eventSourceUrl,
      contact: body.userData ?? {},
      client: { ip: call.ip, userAgent: call.header('user-agent').slice(0, 1000) || undefined, fbp: body.fbp, fbc: body.fbc },
      customData,
    });
    return json(202, { eventId: body.eventId, queued: true });
  },
} satisfies Partial<OperationHandlers>;
