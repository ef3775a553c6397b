import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Notifications } from '../../platform/db/notifications.ts';
import { localDateRange, localToday } from '../../domain/venueTime.ts';

/**
 * The public catalog from memory (issue 25 §7). Every visitor's first request is a catalog read, and each read
 * costs two SQL statements; the answers change only when something is written, or when time passes an instant
 * the answer depends on. So each answer (per operation, parameters and locale) is kept with its ETag until either:
 *
 * - a write says so: the catalog's subscribers (./services.ts) to `catalog.changed`, which the writing commands
 *   publish in their transaction (shows, events, offers, their items, the commercial setup, a stored image's
 *   object), and to the domain events that move seats (a hold placed, confirmed, cancelled, a no-show, holds
 *   expired, a reservation resized or moved, a cancelled event), call `catalogChanged(app, trx)`; so does a
 *   waiting-list offer. It reaches every process through the invalidation channel (this one once the transaction
 *   commits; the others by PostgreSQL NOTIFY, sent only if it commits), and clears every kept answer;
 * - the clock reaches the next instant that changes some answer (`nextChange`): a hold's or a waiting-list offer's
 *   expiry (seats free up), an event's start or its booking cut-off (it leaves the lists; it closes), an offer's
 *   sales window opening or closing, the venue's next local midnight (the default date window moves). One query
 *   per fill, shared by every answer of the same generation;
 * - it is `maxAgeMs` old (`CATALOG_CACHE_MAX_AGE_SECONDS`, 60 s): nothing the application writes needs that, but
 *   a row changed behind its back (psql, a restore into the live database) is seen by then.
 *
 * A read in flight while the cache is cleared serves its own request but is not kept (the generation counter), so
 * an answer computed from rows older than a committed write is never served afterwards. When the channel loses its
 * connection (PostgreSQL), everything is forgotten as well. At most `maxEntries` answers are kept (oldest out), so
 * odd parameters cannot grow it without bound; a 404 or a refused query is never kept.
 */

export const CATALOG_TOPIC = 'catalog';

export interface CachedAnswer<B> {
  body: B;
  etag: string;
  /** The body's JSON as UTF-8, made once with the answer: a hit sends these bytes, it serialises nothing again. */
  bytes: Buffer;
}

interface Entry {
  answer: CachedAnswer<unknown>;
  until: number;
}

const DEFAULT_MAX_ENTRIES = 500;
const DEFAULT_MAX_AGE_MS = 60_000;

export interface CatalogCacheOptions {
  /** Answers kept at most (the oldest goes first). */
  maxEntries?: number;
  /** Off: every read is made anew (and counted as a miss). */
  enabled?: boolean;
  /** How long an answer is served at most (ms). */
  maxAgeMs?: number;
}

/**
 * An answer as it is kept: its body, the bytes sent and their strong ETag (over those bytes: the same for the same
 * answer in every process), all made once.
 */
export function answerOf<B>(body: B): CachedAnswer<B> {
  const bytes = Buffer.from(JSON.stringify(body));
  return { body, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`, bytes };
}

export class CatalogCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  /** The next time-driven change, for the current generation (computed on the first fill after a clear). */
  private horizon: { generation: number; from: number; until: number } | undefined;
  private horizonLoad: { generation: number; promise: Promise<number> } | undefined;
  /** Answers being made, by key (shared by the requests that ask meanwhile). */
  private readonly inFlight = new Map<string, { generation: number; promise: Promise<{ answer: CachedAnswer<unknown>; until: number }> }>();
  hits = 0;
  misses = 0;

  private readonly maxEntries: number;
  readonly enabled: boolean;
  private readonly maxAgeMs: number;

  constructor(
    private readonly knex: Knex,
    private readonly zone: string,
    notifications: Notifications | undefined,
    options: CatalogCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.enabled = options.enabled ?? true;
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
    notifications?.subscribe(CATALOG_TOPIC, { handle: () => this.clear(), reset: () => this.clear() });
  }

  /** Forgets every kept answer; a fill in flight is not kept. */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.horizon = undefined;
    this.horizonLoad = undefined;
    this.inFlight.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The kept answer for `key` at `now`, or the one `load` makes (kept when nothing changed meanwhile). */
  async answer<B>(key: string, now: Date, load: () => Promise<B>): Promise<CachedAnswer<B>> {
    const at = now.getTime();
    const entry = this.entries.get(key);
    if (entry && at < entry.until) {
      this.hits += 1;
      return entry.answer as CachedAnswer<B>;
    }
    if (entry) this.entries.delete(key);
    this.misses += 1;
    if (!this.enabled) {
      return answerOf(await load());
    }
    const generation = this.generation;
    // Requests for the same answer while it is being made share its reads (after a write, a crowd of visitors
    // costs one read, not one each), as long as nothing was written since it began and its clock still holds.
    const joined = this.inFlight.get(key);
    if (joined && joined.generation === generation) {
      const made = await joined.promise;
      if (at < made.until) return made.answer as CachedAnswer<B>;
    }
    const promise = Promise.all([load(), this.nextChange(now)]).then(([body, until]) => ({ answer: answerOf(body) as CachedAnswer<unknown>, until: Math.min(until, at + this.maxAgeMs) }));
    const flight = { generation, promise };
    this.inFlight.set(key, flight);
    try {
      const { answer, until } = await promise;
      if (generation === this.generation && at < until) {
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
        this.entries.set(key, { answer, until });
      }
      return answer as CachedAnswer<B>;
    } finally {
      if (this.inFlight.get(key) === flight) this.inFlight.delete(key);
    }
  }

  /** The first instant after `now` at which some public answer may change by the clock alone (epoch ms). */
  private nextChange(now: Date): Promise<number> {
    const at = now.getTime();
    const known = this.horizon;
    if (known && known.generation === this.generation && known.from <= at && at < known.until) return Promise.resolve(known.until);
    const pending = this.horizonLoad;
    if (pending && pending.generation === this.generation) return pending.promise;
    const generation = this.generation;
    const load = {
      generation,
      promise: this.loadNextChange(now).then(
        (until) => {
          if (generation === this.generation) this.horizon = { generation, from: at, until };
          if (this.horizonLoad === load) this.horizonLoad = undefined;
          return until;
        },
        (err: unknown) => {
          if (this.horizonLoad === load) this.horizonLoad = undefined;
          throw err;
        },
      ),
    };
    this.horizonLoad = load;
    return load.promise;
  }

  private async loadNextChange(now: Date): Promise<number> {
    const result = await this.knex.raw(
      `select least(
          (select min(hold_expires_at) from reservations where status = 'HELD' and hold_expires_at > :now),
          (select min(offer_expires_at) from waitlist_entries where status = 'NOTIFIED' and offer_expires_at > :now),
          (select min(starts_at) from show_events where starts_at > :now),
          (select min(e.starts_at - make_interval(mins => cs.booking_cutoff_minutes))
             from show_events e cross join commercial_setup cs
            where cs.id = 1 and e.starts_at - make_interval(mins => cs.booking_cutoff_minutes) > :now),
          (select min(sales_starts_at) from offers where sales_starts_at > :now),
          (select min(sales_ends_at) from offers where sales_ends_at > :now)
        ) as next_change`,
      { now },
    );
    const value = (result as { rows: Array<{ next_change: Date | string | null }> }).rows[0]?.next_change;
    const midnight = localDateRange(localToday(this.zone, now), localToday(this.zone, now), this.zone).end.getTime();
    const next = value ? new Date(value).getTime() : Number.POSITIVE_INFINITY;
    return Math.min(next, midnight);
  }
}

/**
 * Announces a change to what the public catalog shows, inside the writer's transaction: every process forgets its
 * kept answers once it commits (never on a rollback). Without a transaction, at once.
 */
export function catalogChanged(app: { notifications: Notifications }, trx?: Knex.Transaction, what?: { entity: string; id?: string | null }): Promise<void> {
  return app.notifications.publish(CATALOG_TOPIC, what ? { entity: what.entity, id: what.id ?? null } : undefined, trx);
}
