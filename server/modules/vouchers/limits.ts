import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/rateLimit.ts';

declare module '../../platform/context.ts' {
  interface AppContext {
    /** The public voucher balance check's budget per client address (the vouchers module). */
    voucherBalanceLimit: RateLimit;
  }
}

/** The module's per-app services (its record's `services`). */
export function vouchersServices(platform: PlatformContext): Pick<AppContext, 'voucherBalanceLimit'> {
  return { voucherBalanceLimit: new RateLimit({ name: 'voucher-balance-address', points: 20, windowSeconds: 600 }, rateLimitStoreFor(platform.db)) };
}

/** Balance checks: 20 per address per 10 minutes (codes are not guessable, but nobody should get to try). */
export async function throttleBalanceCheck(app: Pick<AppContext, 'voucherBalanceLimit'>, ip: string): Promise<void> {
  await consumeOrThrow([[app.voucherBalanceLimit, addressKey(ip)]], 'Too many voucher balance checks from this address; try again later.');
}
