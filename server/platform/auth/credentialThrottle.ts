import { addressKey, RateLimit, type RateLimitStore } from '../rateLimit.ts';
import { TooManyRequests } from '../http/problem.ts';

/** The kinds of credential whose failures are counted (the metric's `credential` label). */
export type FailedCredential = 'api-key' | 'superuser-token' | 'service-token' | 'webhook-token' | 'verify-token' | 'metrics-token';

export interface CredentialThrottleOptions {
  /** Failed presentations one client address may make per window, whatever the credential. */
  maxFailures: number;
  windowSeconds: number;
  /** Told of every failed presentation (the metric), and whether it was the one that crossed the limit. */
  onFailure?(credential: FailedCredential, throttled: boolean): void;
}

/** Addresses this process saw refused, kept at most this many (the oldest dropped first). */
const MAX_REMEMBERED = 10_000;

/**
 * Failed credential presentations per client address (issue 32 §2): a wrong `x-api-key`, superuser token
 * (`x-api-token` or `Authorization: Bearer`), service token, webhook token or verify token spends one point of the
 * address's budget in the shared rate-limit store (PostgreSQL when DATABASE_URL is set, so every process counts
 * together). Past `maxFailures` in a window the request answers 429 with `Retry-After`, and every later request from
 * that address that presents any of these credentials answers 429 too until the window ends, a right one included:
 * otherwise a guesser would learn a hit from the one answer that is not 429. A process that has not itself seen the
 * address refused learns it at the address's next failure there (one more point in the shared store).
 * Session cookies are not counted (a browser's expired cookie is no guess); passwords have their own sign-in throttle.
 */
export class CredentialThrottle {
  private readonly limit: RateLimit;
  /** address key → when its refusal ends (ms): answered without a store round trip. */
  private readonly refused = new Map<string, number>();

  constructor(
    private readonly options: CredentialThrottleOptions,
    store: RateLimitStore,
  ) {
    this.limit = new RateLimit({ name: 'credential-failures', points: options.maxFailures, windowSeconds: options.windowSeconds }, store);
  }

  /** Throws 429 when this process saw `address` refused and its window has not ended. Synchronous: no store read. */
  check(address: string): void {
    if (this.refused.size === 0) return;
    const key = addressKey(address);
    const until = this.refused.get(key);
    if (until === undefined) return;
    const left = until - Date.now();
    if (left <= 0) {
      this.refused.delete(key);
      return;
    }
    throw tooMany(Math.ceil(left / 1000));
  }

  /** Counts one failed presentation; throws 429 (Retry-After) when the address has no budget left. */
  async failed(address: string, credential: FailedCredential): Promise<void> {
    const key = addressKey(address);
    const decision = await this.limit.consume(key);
    this.options.onFailure?.(credential, !decision.allowed);
    if (decision.allowed) return;
    if (this.refused.size >= MAX_REMEMBERED) this.refused.delete(this.refused.keys().next().value!);
    this.refused.set(key, Date.now() + decision.retryAfterSeconds * 1000);
    throw tooMany(decision.retryAfterSeconds);
  }
}

const tooMany = (retryAfterSeconds: number) =>
  TooManyRequests(retryAfterSeconds, 'Too many wrong credentials from this address; try again later.');
