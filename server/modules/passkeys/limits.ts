import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/rateLimit.ts';

declare module '../../platform/context.ts' {
  interface AppContext {
    /** Passkey sign-in challenges one client address may ask for (the passkeys module). */
    passkeyChallengeLimit: RateLimit;
  }
}

/** The module's per-app services (its record's `services`). */
export function passkeysServices(platform: PlatformContext): Pick<AppContext, 'passkeyChallengeLimit'> {
  return { passkeyChallengeLimit: new RateLimit({ name: 'passkey-challenge-address', points: 30, windowSeconds: 60 }, rateLimitStoreFor(platform.db)) };
}

/** Public sign-in challenges: 30 per address per minute, so nobody fills the challenge table from one address. */
export async function throttleSignInChallenge(app: Pick<AppContext, 'passkeyChallengeLimit'>, ip: string): Promise<void> {
  await consumeOrThrow([[app.passkeyChallengeLimit, addressKey(ip)]], 'Too many passkey sign-in attempts from this address; try again later.');
}
