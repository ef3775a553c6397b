import type { QueueDefinition } from '../../server/jobs/index.ts';

/** Polls `check` every 50 ms until it answers something truthy; fails after `timeoutMs`. */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A promise with its resolver, to let a handler wait for the test (and the test for a handler). */
export function deferred<T = void>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A test queue: no retries, short expiry, unless told otherwise. */
export function testQueue<T extends object>(name: string, handler: QueueDefinition<T>['handler'], overrides: Partial<QueueDefinition<T>> = {}): QueueDefinition<T> {
  return { name, handler, retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 30, ...overrides };
}
