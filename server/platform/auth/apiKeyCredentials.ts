import type { Knex } from 'knex';
import type { AuthContext } from './context.ts';
import type { Logger } from '../logger.ts';
import type { Notifications, Payload } from '../db/notifications.ts';
import type { AccountRole } from './roles.ts';
import { sha256Hex } from './secrets.ts';

/**
 * Where API keys are kept (the apiKeys module's tables, server/modules/apiKeys/store.ts): the platform resolves and
 * counts keys on the request path, the module owns the rows.
 */
export interface ApiKeyStore {
  /** The working key with this SHA-256 hash and its owner (undefined when there is none, or it is disabled or its owner cannot use it). */
  find(hash: string): Promise<ApiKeyIdentity | undefined>;
  /** Adds `count` uses to the key and moves its last use forward to `lastUsedAt` (never back). */
  recordUses(id: string, count: number, lastUsedAt: Date): Promise<void>;
}

/** What an accepted API key resolves to. */
export interface ApiKeyIdentity {
  id: string;
  name: string;
  start: string;
  expiresAt: Date | null;
  permissions: string[];
  accountId: string;
  email: string;
  accountName: string;
  accountRole: AccountRole;
}

interface CacheEntry {
  identity: ApiKeyIdentity;
  /** The request identity, built once per lookup and shared (read-only) by the requests that use the key. */
  auth: AuthContext;
  until: number;
}

const MAX_CACHED_KEYS = 10_000;

/** The invalidation channel's topic for API keys and their accounts (server/platform/db/notifications.ts). */
export const CREDENTIALS_TOPIC = 'credentials';

/** What changed: one key, every key of one account, or (nothing named) anything. */
export type CredentialsChange = { apiKeyId: string } | { accountId: string } | Record<string, never>;

function toAuthContext(key: ApiKeyIdentity): AuthContext {
  return Object.freeze({
    role: 'superuser',
    authSource: 'api-key',
    permissions: key.permissions,
    identity: Object.freeze({
      accountId: key.accountId,
      email: key.email,
      name: key.accountName,
      accountRole: key.accountRole,
      apiKeyId: key.id,
      apiKeyName: key.name,
      apiKeyStart: key.start,
      apiKeyExpiresAt: key.expiresAt,
    }),
  }) as AuthContext;
}

/**
 * API-key lookups and usage counting, kept off the request path's database work (spec §5.1: the counter is
 * best-effort and must not block the request).
 *
 * - An accepted key is remembered for `cacheMs` (by hash; misses are never cached). The key's own expiry is
 *   checked on every request. An administration command that changes a key or an account calls `changed` inside
 *   its transaction: once it commits, every process (this one at once, the others through the invalidation
 *   channel, PostgreSQL `LISTEN/NOTIFY`) forgets the keys concerned; `cacheMs` is only the bound should the channel
 *   itself fail, and a reconnected channel forgets every key.
 * - Uses are counted in memory and written every `flushMs` as one `request_count + n` update per key, and
 *   once more when the app closes. A failed write is logged and its counts are kept for the next one.
 */
export class ApiKeyCredentials {
  private readonly cache = new Map<string, CacheEntry>();
  /** Uses not yet written, by key id; `lastUsedAt` in epoch milliseconds (a Date is made only when written). */
  private readonly pending = new Map<string, { count: number; lastUsedAt: number }>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Bumped by `invalidate`: a lookup that began before it may have read the old state, so it is not remembered. */
  private generation = 0;

  constructor(
    private readonly store: ApiKeyStore,
    private readonly logger: Logger,
    private readonly cacheMs: number,
    private readonly flushMs: number,
    /** The clock expiries and cache lifetimes are read from (tests replace it). */
    public now: () => number = Date.now,
    private readonly notifications?: Notifications,
  ) {
    notifications?.subscribe(CREDENTIALS_TOPIC, { handle: (payload) => this.forget(payload), reset: () => this.invalidate() });
  }

  /**
   * Announces a change to a key or an account inside `trx` (the command's transaction): after the commit every
   * process forgets what it remembered of it; a rollback announces nothing.
   */
  async changed(change: CredentialsChange, trx: Knex.Transaction): Promise<void> {
    if (this.notifications) await this.notifications.publish(CREDENTIALS_TOPIC, change, trx);
    else trx.executionPromise.then(() => this.forget(change), () => {});
  }

  /** Forgets the remembered keys a change names (every key when it names none). */
  forget(change: Payload): void {
    const apiKeyId = typeof change?.apiKeyId === 'string' ? change.apiKeyId : undefined;
    const accountId = typeof change?.accountId === 'string' ? change.accountId : undefined;
    if (!apiKeyId && !accountId) return this.invalidate();
    this.generation += 1;
    for (const [hash, entry] of this.cache) {
      if (entry.identity.id === apiKeyId || entry.identity.accountId === accountId) this.cache.delete(hash);
    }
  }

  /** The identity an API key resolves to (role superuser, its permissions), or undefined when it is not accepted. */
  async resolve(rawKey: string): Promise<AuthContext | undefined> {
    const hash = sha256Hex(rawKey);
    const now = this.now();
    let entry = this.remembered(hash, now);
    if (!entry) {
      const generation = this.generation;
      const identity = await this.store.find(hash);
      if (!identity) return undefined;
      entry = { identity, auth: toAuthContext(identity), until: now + this.cacheMs };
      if (this.cacheMs > 0 && generation === this.generation) {
        if (this.cache.size >= MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value!);
        this.cache.set(hash, entry);
      }
    }
    return this.accept(entry, now);
  }

  /**
   * `resolve` without waiting, for a key remembered from an earlier request (almost every keyed request): its
   * identity, counted as a use; undefined when the key is not remembered or not accepted, and `resolve` decides.
   */
  resolveRemembered(rawKey: string): AuthContext | undefined {
    const now = this.now();
    const entry = this.remembered(sha256Hex(rawKey), now);
    return entry ? this.accept(entry, now) : undefined;
  }

  /** The remembered entry for a key hash while it is fresh; a stale one is dropped. */
  private remembered(hash: string, now: number): CacheEntry | undefined {
    const entry = this.cache.get(hash);
    if (entry && entry.until > now) return entry;
    if (entry) this.cache.delete(hash);
    return undefined;
  }

  /** The key's own expiry is checked on every request; an accepted use is counted. */
  private accept(entry: CacheEntry, now: number): AuthContext | undefined {
    if (entry.identity.expiresAt && entry.identity.expiresAt.getTime() <= now) return undefined;
    this.recordUse(entry.identity.id);
    return entry.auth;
  }

  /**
   * Forget every remembered key: called after any change to keys or accounts has been committed (called before
   * the commit, a concurrent request could read and remember the old row again). A lookup still in flight when
   * this is called is used for its request but not remembered.
   */
  invalidate(): void {
    this.generation += 1;
    this.cache.clear();
  }

  private recordUse(id: string): void {
    const entry = this.pending.get(id);
    const at = Date.now();
    if (entry) {
      entry.count += 1;
      entry.lastUsedAt = at;
    } else {
      this.pending.set(id, { count: 1, lastUsedAt: at });
    }
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes the counted uses; resolves when they are written (or failed and were put back). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending];
    this.pending.clear();
    for (const [id, { count, lastUsedAt: at }] of batch) {
      const lastUsedAt = new Date(at);
      try {
        await this.store.recordUses(id, count, lastUsedAt);
      } catch (err) {
        this.logger.warn({ err, apiKeyId: id, count }, 'api key usage update failed; kept for the next flush');
        const later = this.pending.get(id);
        this.pending.set(id, { count: count + (later?.count ?? 0), lastUsedAt: later?.lastUsedAt ?? at });
      }
    }
  }

  /** Stops the timer and writes what is counted. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
