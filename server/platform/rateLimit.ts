import net from 'node:net';
import type { Knex } from 'knex';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { sha256Hex } from './auth/secrets.ts';
import type { Database } from './db/database.ts';
import { TooManyRequests } from './http/problem.ts';

/**
 * Fixed-window rate limits over rate-limiter-flexible, for whatever is throttled: routes (sign-in, the public
 * write routes), the credential and sign-in throttles of ./auth, and any job or service that spends a budget. It
 * knows no request: callers pass the key (an address through `addressKey`, an identifier, …); `consumeOrThrow`'s
 * refusal is the HTTP 429 problem (Retry-After), which a job treats as any other error. One `RateLimit` per rule; keys are hashed before they
 * reach the store, so the store holds no e-mail address or client address and a key's length is bounded.
 *
 * Stores: in memory for the embedded database (one process owns it anyway), PostgreSQL when `DATABASE_URL` is
 * set, so every process behind a load balancer shares the counts. The PostgreSQL table is created by a
 * migration (`migrations/…_rate_limits.ts`, the same on both databases); all rules share it, told apart by
 * their name (the key prefix).
 */

export const RATE_LIMIT_TABLE = 'rate_limits';

export type RateLimitStore = { kind: 'memory' } | { kind: 'postgres'; knex: Knex };

/** The store for this app's database: PostgreSQL (shared by every process) or memory (embedded database). */
export function rateLimitStoreFor(db: Pick<Database, 'kind' | 'knex'>): RateLimitStore {
  return db.kind === 'postgres' ? { kind: 'postgres', knex: db.knex } : { kind: 'memory' };
}

export interface RateLimitRule {
  /** Names the rule's keys in the shared store (`sign-in-pair`); unique per rule. */
  name: string;
  /** Points (attempts) a key may spend per window. */
  points: number;
  /** The window: counting starts with a key's first point and ends this many seconds later. */
  windowSeconds: number;
}

export type RateLimitDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

export class RateLimit {
  private readonly limiter: RateLimiterAbstract;

  constructor(
    readonly rule: RateLimitRule,
    store: RateLimitStore,
  ) {
    const options = { keyPrefix: rule.name, points: rule.points, duration: rule.windowSeconds };
    this.limiter =
      store.kind === 'postgres'
        ? new RateLimiterPostgres({ ...options, storeClient: store.knex, storeType: 'knex', tableName: RATE_LIMIT_TABLE, tableCreated: true })
        : new RateLimiterMemory(options);
  }

  /**
   * Spends `points` of `key`'s budget. Atomic in both stores: of N concurrent calls at most `points` per window
   * are allowed, whatever their interleaving. Spent points count even when refused. A store failure rejects.
   */
  async consume(key: string, points = 1): Promise<RateLimitDecision> {
    try {
      const res = await this.limiter.consume(hashKey(key), points);
      return { allowed: true, remaining: res.remainingPoints };
    } catch (refused) {
      if (refused instanceof RateLimiterRes) return { allowed: false, retryAfterSeconds: retryAfter(refused.msBeforeNext) };
      throw refused;
    }
  }

  /** Gives `points` back to `key` (an attempt that turned out fine). */
  async reward(key: string, points = 1): Promise<void> {
    await this.limiter.reward(hashKey(key), points);
  }

  /** Forgets `key` entirely. */
  async reset(key: string): Promise<void> {
    await this.limiter.delete(hashKey(key));
  }
}

/**
 * Spends one point of each `[limit, key]`, in order, and throws 429 too_many_requests with `Retry-After` at the
 * first that refuses; the later ones are then not spent. In order, so that the narrow budget decides first:
 * of N concurrent attempts on one sign-in pair exactly the pair's budget reaches the address budget, on either
 * store, whatever the interleaving (concurrently, the pair's first attempts could be the ones the address
 * refuses).
 */
export async function consumeOrThrow(checks: Array<[RateLimit, string]>, detail: string): Promise<void> {
  for (const [limit, key] of checks) {
    const decision = await limit.consume(key);
    if (!decision.allowed) throw TooManyRequests(decision.retryAfterSeconds, detail);
  }
}

const retryAfter = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

const hashKey = (key: string) => sha256Hex(key);

/**
 * The client address as a rate-limit key: IPv4 as is (also when IPv4-mapped, `::ffff:10.0.0.1`), IPv6 by its
 * /64 prefix, since one subscriber usually holds a whole /64 and could otherwise rotate through 2^64 keys.
 */
export function addressKey(ip: string): string {
  const bare = ip.split('%')[0];
  if (bare.toLowerCase().startsWith('::ffff:') && net.isIPv4(bare.slice(7))) return bare.slice(7);
  if (!net.isIPv6(bare)) return bare;
  const [head, tail] = bare.toLowerCase().split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups = tail === undefined ? front : [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${groups.slice(0, 4).map((group) => parseInt(group, 16).toString(16)).join(':')}::/64`;
}
