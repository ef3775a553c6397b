import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { subscriber, type DomainEvent, type DomainSubscriber } from '../../domain/events.ts';
import { CatalogCache, catalogChanged } from './cache.ts';

declare module '../../platform/context.ts' {
  interface AppContext {
    /** The public catalog's answers kept in memory until a write or the clock changes them (the catalog module). */
    catalogCache: CatalogCache;
  }
}

/** The module's per-app services (its record's `services`): the catalog cache, listening on the invalidation channel. */
export function catalogServices(platform: PlatformContext): Pick<AppContext, 'catalogCache'> {
  const entries = platform.config.catalogCacheEntries;
  return {
    catalogCache: new CatalogCache(platform.db.knex, platform.config.venueTimezone, platform.notifications, {
      maxEntries: Math.max(1, entries),
      enabled: entries > 0,
      maxAgeMs: platform.config.catalogCacheMaxAgeSeconds * 1000,
    }),
  };
}

/**
 * The domain events that change what the public catalog answers: each clears every process's kept catalog answers
 * once its transaction commits (in-transaction, so the notification to other processes is sent only if it commits;
 * last, after the subscribers that write). `catalog.changed` is the catalog's own writes (shows, events, offers,
 * their items, the commercial setup, a stored image's object); the others move seats or close an event.
 */
const SEAT_EVENTS: DomainEvent[] = [
  'hold.placed',
  'reservation.confirmed',
  'reservation.cancelled',
  'reservation.noShow',
  'reservation.resized',
  'holds.expired',
  'showEvent.cancelled',
  'waitlist.offered',
  'waitlist.offerWithdrawn',
];

export const subscribers: DomainSubscriber[] = [
  subscriber({
    name: 'catalog.forget-answers:catalog.changed',
    event: 'catalog.changed',
    phase: 'in-transaction',
    order: 1000,
    handle: (payload, { trx, app }) => catalogChanged(app, trx, payload),
  }),
  ...SEAT_EVENTS.map((event) =>
    subscriber({
      name: `catalog.forget-answers:${event}`,
      event,
      phase: 'in-transaction',
      order: 1000,
      handle: (_payload, { trx, app }) => catalogChanged(app, trx, { entity: event }),
    }),
  ),
];
