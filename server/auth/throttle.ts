/**
 * Counts failed sign-ins per key (identifier, and separately the peer address) in a sliding window;
 * past the limit the key is refused until its oldest failure leaves the window. In memory, per process:
 * enough for one server; behind several, put it in a shared store.
 */
export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds to wait before trying again, or 0 when the key may try now. */
  retryAfterSeconds(keys: string[]): number {
    const now = this.now();
    let wait = 0;
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= this.maxFailures) {
        wait = Math.max(wait, Math.ceil((recent[recent.length - this.maxFailures] + this.windowMs - now) / 1000));
      }
    }
    return Math.max(0, wait);
  }

  recordFailure(keys: string[]): void {
    const now = this.now();
    for (const key of keys) this.failures.set(key, [...this.recent(key, now), now]);
    if (this.failures.size > 100_000) this.prune(now);
  }

  reset(keys: string[]): void {
    for (const key of keys) this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((at) => at > now - this.windowMs);
  }

  private prune(now: number): void {
    for (const key of this.failures.keys()) {
      if (this.recent(key, now).length === 0) this.failures.delete(key);
    }
  }
}
