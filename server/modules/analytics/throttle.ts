import type { AppContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/http/rateLimit.ts';

const limitByApp = new WeakMap<AppContext, RateLimit>();

/** `POST /api/analytics/meta/outbound-event`: META_EVENT_RATE_LIMIT_PER_MINUTE per client address. */
export async function throttleMetaEvent(app: AppContext, ip: string): Promise<void> {
  let limit = limitByApp.get(app);
  if (!limit) {
    limit = new RateLimit({ name: 'meta-event-address', points: app.config.metaEventRateLimitPerMinute, windowSeconds: 60 }, rateLimitStoreFor(app.db));
    limitByApp.set(app, limit);
  }
  await consumeOrThrow([[limit, addressKey(ip)]], 'Too many events from this address; try again later.');
}
