import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/rateLimit.ts';

declare module '../../platform/context.ts' {
  interface AppContext {
    /** `POST /api/analytics/meta/outbound-event`: META_EVENT_RATE_LIMIT_PER_MINUTE per client address (the analytics module). */
    metaEventLimit: RateLimit;
  }
}

/** The module's per-app services (its record's `services`). */
export function analyticsServices(platform: PlatformContext): Pick<AppContext, 'metaEventLimit'> {
  const { config, db } = platform;
  return { metaEventLimit: new RateLimit({ name: 'meta-event-address', points: config.metaEventRateLimitPerMinute, windowSeconds: 60 }, rateLimitStoreFor(db)) };
}

/** `POST /api/analytics/meta/outbound-event`: META_EVENT_RATE_LIMIT_PER_MINUTE per client address. */
export async function throttleMetaEvent(app: AppContext, ip: string): Promise<void> {
  await consumeOrThrow([[app.metaEventLimit, addressKey(ip)]], 'Too many events from this address; try again later.');
}
