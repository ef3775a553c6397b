import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/rateLimit.ts';
import { SeatGate } from './seatGate.ts';

/** The booking's rate limits, per client address (one set per running app). */
export interface BookingLimits {
  leads: RateLimit;
  holds: RateLimit;
  quotes: RateLimit;
}

declare module '../../platform/context.ts' {
  interface AppContext {
    /** Lead captures and public holds, each with its own budget per client address (the booking module). */
    bookingLimits: BookingLimits;
    /** The guest's holds admitted per event before the event's lock (./seatGate.ts; one per running app). */
    bookingGate: SeatGate;
  }
}

/**
 * The module's per-app services (its record's `services`). Lead captures: 20 per address per 10 minutes. Holds: 30.
 * Quotes (a guest changing the party size or the offer before holding, issue 34 §3): 60.
 */
export function bookingServices(platform: PlatformContext): Pick<AppContext, 'bookingLimits' | 'bookingGate'> {
  const store = rateLimitStoreFor(platform.db);
  return {
    bookingLimits: {
      leads: new RateLimit({ name: 'booking-lead-address', points: 20, windowSeconds: 600 }, store),
      holds: new RateLimit({ name: 'booking-hold-address', points: 30, windowSeconds: 600 }, store),
      quotes: new RateLimit({ name: 'booking-quote-address', points: 60, windowSeconds: 600 }, store),
    },
    bookingGate: new SeatGate(),
  };
}

export async function throttle(limit: RateLimit, ip: string): Promise<void> {
  await consumeOrThrow([[limit, addressKey(ip)]], 'Too many booking requests from this address; try again later.');
}
