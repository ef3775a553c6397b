import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { RateLimit, rateLimitStoreFor } from '../../platform/rateLimit.ts';

declare module '../../platform/context.ts' {
  interface AppContext {
    /** Resolutions of `/go/{slug}` links: 60 per client address per minute (the referralLinks module). */
    referralResolveLimit: RateLimit;
  }
}

/** The module's per-app services (its record's `services`). */
export function referralLinksServices(platform: PlatformContext): Pick<AppContext, 'referralResolveLimit'> {
  return { referralResolveLimit: new RateLimit({ name: 'referral-resolve-address', points: 60, windowSeconds: 60 }, rateLimitStoreFor(platform.db)) };
}
