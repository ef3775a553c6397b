import { addressKey, consumeOrThrow, RateLimit, type RateLimitStore } from '../rateLimit.ts';

export interface SignInThrottleOptions {
  /** Consecutive failures one identifier may have from one client address per window. */
  maxFailures: number;
  /** Failures one client address may have per window, whatever the identifiers. */
  maxFailuresPerAddress: number;
  windowSeconds: number;
}

/**
 * Sign-in throttling (server/platform/rateLimit.ts underneath, shared by every process on PostgreSQL):
 *
 * - per identifier + client address pair, `maxFailures` consecutive failures per window. The lock-out is the
 *   pair's: a stranger guessing elsewhere cannot lock the account's owner out.
 * - per client address, a larger budget across identifiers (`maxFailuresPerAddress`), against spraying.
 *
 * An attempt is counted *before* its password is checked (`begin`), so concurrent guesses cannot all slip in
 * while earlier ones are still being hashed. A correct password (`succeeded`) forgets that pair only and gives
 * the address back the one attempt it spent; other pairs and the address's failures stay counted.
 */
export class SignInThrottle {
  private readonly pairs: RateLimit;
  private readonly addresses: RateLimit;

  constructor(options: SignInThrottleOptions, store: RateLimitStore) {
    this.pairs = new RateLimit({ name: 'sign-in-pair', points: options.maxFailures, windowSeconds: options.windowSeconds }, store);
    this.addresses = new RateLimit({ name: 'sign-in-address', points: options.maxFailuresPerAddress, windowSeconds: options.windowSeconds }, store);
  }

  /** Counts the attempt; throws 429 (Retry-After) when the pair or the address has none left. */
  async begin(identifier: string, address: string): Promise<void> {
    await consumeOrThrow(
      [
        [this.pairs, pairKey(identifier, address)],
        [this.addresses, addressKey(address)],
      ],
      'Too many failed sign-ins; try again later.',
    );
  }

  /** The password was right: that pair starts over, and the address gets this attempt back. */
  async succeeded(identifier: string, address: string): Promise<void> {
    await Promise.all([this.pairs.reset(pairKey(identifier, address)), this.addresses.reward(addressKey(address))]);
  }
}

const pairKey = (identifier: string, address: string) => JSON.stringify([identifier, addressKey(address)]);
