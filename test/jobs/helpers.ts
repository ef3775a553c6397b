import type { QueueDefinition } from '../../server/platform/jobs/index.ts';

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
