import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/rateLimit.ts';

declare module '../../platform/context.ts' {
  interface AppContext {
    /** The public inquiry form's budget per client address (the inquiries module). */
    inquiryLimit: RateLimit;
  }
}

/** The module's per-app services (its record's `services`). */
export function inquiriesServices(platform: PlatformContext): Pick<AppContext, 'inquiryLimit'> {
  return { inquiryLimit: new RateLimit({ name: 'inquiry-address', points: 10, windowSeconds: 600 }, rateLimitStoreFor(platform.db)) };
}

/** Inquiries: 10 per address per 10 minutes. */
export async function throttleInquiry(app: AppContext, ip: string): Promise<void> {
  await consumeOrThrow([[app.inquiryLimit, addressKey(ip)]], 'Too many inquiries from this address; try again later.');
}
