import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/rateLimit.ts';

declare module '../../platform/context.ts' {
  interface AppContext {
    /** Joining the waiting list: the budget per client address (the waitlist module). */
    waitlistJoinLimit: RateLimit;
  }
}

/** The module's per-app services (its record's `services`). */
export function waitlistServices(platform: PlatformContext): Pick<AppContext, 'waitlistJoinLimit'> {
  return { waitlistJoinLimit: new RateLimit({ name: 'waitlist-join-address', points: 10, windowSeconds: 600 }, rateLimitStoreFor(platform.db)) };
}

/** Joins: 10 per address per 10 minutes. */
export async function throttleJoin(app: AppContext, ip: string): Promise<void> {
  await consumeOrThrow([[app.waitlistJoinLimit, addressKey(ip)]], 'Too many waiting-list requests from this address; try again later.');
}
