import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/rateLimit.ts';

export interface ProfileLimits {
  writes: RateLimit;
  reactionsPerProfile: RateLimit;
  reactionsPerAddress: RateLimit;
}

declare module '../../platform/context.ts' {
  interface AppContext {
    /** The guest profile flows' budgets (the profiles module). */
    profileLimits: ProfileLimits;
  }
}

/** The module's per-app services (its record's `services`). */
export function profilesServices(platform: PlatformContext): Pick<AppContext, 'profileLimits'> {
  const store = rateLimitStoreFor(platform.db);
  return {
    profileLimits: {
      writes: new RateLimit({ name: 'profile-write-address', points: 30, windowSeconds: 600 }, store),
      reactionsPerProfile: new RateLimit({ name: 'profile-reaction', points: 20, windowSeconds: 300 }, store),
      reactionsPerAddress: new RateLimit({ name: 'profile-reaction-address', points: 200, windowSeconds: 300 }, store),
    },
  };
}

/** Profile creation and updates: 30 per address per 10 minutes. */
export const throttleProfileWrite = (app: Pick<AppContext, 'profileLimits'>, ip: string) =>
  consumeOrThrow([[app.profileLimits.writes, addressKey(ip)]], 'Too many profile changes from this address; try again later.');

/** Reactions: 20 per profile per 5 minutes, 200 per address (a venue's shared Wi-Fi) per 5 minutes. */
export const throttleReaction = (app: Pick<AppContext, 'profileLimits'>, ip: string, profileId: string) =>
  consumeOrThrow(
    [
      [app.profileLimits.reactionsPerProfile, profileId],
      [app.profileLimits.reactionsPerAddress, addressKey(ip)],
    ],
    'Too many reactions; take a breath and enjoy the show.',
  );
