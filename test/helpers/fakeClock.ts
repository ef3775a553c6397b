import type { Clock, TypingAdapter } from '../../server/modules/chatPlatform/typing.ts';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Fake timers for code that takes a `Clock` (the typing loop): time moves only with `advance`, which runs the
 * due timers in order and lets the promises they start settle in between. `random` answers `randoms` in turn
 * (then repeats the last one).
 */
export class FakeClock implements Clock {
  private t = 0;
  private nextId = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  constructor(private readonly randoms: number[] = [0]) {}

  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.nextId;
    this.timers.set(id, { at: this.t + ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  random(): number {
    return this.randoms.length > 1 ? this.randoms.shift()! : this.randoms[0];
  }
  get pending(): number {
    return this.timers.size;
  }
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await flush();
      let due: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
    }
    this.t = end;
    await flush();
  }
}

/** A platform's typing action that records each call (and its time on `clock`), failing while `failing` is set. */
export function fakeTyping(clock: FakeClock, options: { failing?: boolean } = {}) {
  const calls: Array<{ on: boolean; at: number }> = [];
  const adapter: TypingAdapter & { calls: typeof calls; failing: boolean } = {
    calls,
    failing: options.failing ?? false,
    async typing(on) {
      calls.push({ on, at: clock.now() });
      if (adapter.failing) throw Object.assign(new Error('typing refused'), { code: 'api_error' });
    },
  };
  return adapter;
}
