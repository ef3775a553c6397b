import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/rateLimit.ts';

declare module '../../platform/context.ts' {
  interface AppContext {
    /** The public gift-voucher purchase's budget per client address (the giftVouchers module). */
    giftVoucherPurchaseLimit: RateLimit;
  }
}

/** The module's per-app services (its record's `services`). */
export function giftVouchersServices(platform: PlatformContext): Pick<AppContext, 'giftVoucherPurchaseLimit'> {
  return { giftVoucherPurchaseLimit: new RateLimit({ name: 'gift-voucher-purchase-address', points: 10, windowSeconds: 600 }, rateLimitStoreFor(platform.db)) };
}

/** Purchases: 10 new orders per address per 10 minutes (a replay of a remembered answer spends nothing). */
export async function throttlePurchase(app: Pick<AppContext, 'giftVoucherPurchaseLimit'>, ip: string): Promise<void> {
  await consumeOrThrow([[app.giftVoucherPurchaseLimit, addressKey(ip)]], 'Too many gift-voucher orders from this address; try again later.');
}
