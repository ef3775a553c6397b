/**
 * The one polling helper of the suite: asks `probe` every `intervalMs` until `until(value)` holds (by default:
 * the value is truthy) and answers that value. Every wait has a deadline: past `timeoutMs` it throws, naming
 * `what` (and the last value seen), unless `orLast` asks for the last value instead, so that the spec's own
 * assertion reports the failure with its own message.
 *
 *   const row = await eventually(() => knex('chat_turns').first(), { until: (r) => r?.status === 'SENT' });
 */
export interface EventuallyOptions<T> {
  /** When to stop (default: the value is truthy). */
  until?: (value: T) => boolean;
  /** Deadline, in ms from the call (default 10 s). */
  timeoutMs?: number;
  /** Pause between probes (default 50 ms). */
  intervalMs?: number;
  /** What is awaited, for the time-out's message (a function is called only then, e.g. to show output). */
  what?: string | (() => string);
  /** At the deadline, answer the last value instead of throwing. */
  orLast?: boolean;
  /** Pause once before the first probe (for loops that always waited first). */
  delayFirst?: boolean;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function eventually<T>(probe: () => T | Promise<T>, options: EventuallyOptions<T> & { until: (value: T) => boolean }): Promise<T>;
export function eventually<T>(probe: () => T | Promise<T>, options?: Omit<EventuallyOptions<T>, 'until' | 'orLast'>): Promise<NonNullable<T>>;
export async function eventually<T>(probe: () => T | Promise<T>, options: EventuallyOptions<T> = {}): Promise<T> {
  const { until = (value: T) => Boolean(value), timeoutMs = 10_000, intervalMs = 50, what = 'the condition', orLast = false, delayFirst = false } = options;
  const deadline = Date.now() + timeoutMs;
  if (delayFirst) await sleep(intervalMs);
  for (;;) {
    const value = await probe();
    if (until(value)) return value;
    if (Date.now() > deadline) {
      if (orLast) return value;
      const described = typeof what === 'function' ? what() : what;
      let last: string;
      try {
        last = typeof value === 'string' ? value : JSON.stringify(value);
      } catch {
        last = String(value);
      }
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${described} (last value: ${String(last).slice(0, 500)})`);
    }
    await sleep(intervalMs);
  }
}
