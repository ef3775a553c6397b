import type { Logger } from '../../platform/logger.ts';

/**
 * The typing indicator loop (spec §8.1), for channels whose platform adapter supports typing actions (the
 * WhatsApp Cloud API does; ManyChat's public API has no such call, so its turns run no loop). Every constant is
 * here, as the spec lists them.
 */
export const TYPING_INDICATOR = {
  /** Initial delay: 400 to 900 ms after the acknowledgement (none at all when the answer is ready first). */
  initialDelayMs: { min: 400, max: 900 },
  /** Typing-on window: 2.2 to 4.8 seconds. */
  typingOnMs: { min: 2_200, max: 4_800 },
  /** Typing-off pause: 600 to 1,800 ms. */
  typingOffMs: { min: 600, max: 1_800 },
  /** Maximum loop duration: 55 seconds. */
  maxLoopMs: 55_000,
  /** Maximum failures before the loop goes silent: 3. */
  maxFailures: 3,
} as const;

export type TypingConstants = typeof TYPING_INDICATOR;

/** A platform's typing action for one conversation. */
export interface TypingAdapter {
  typing(on: boolean): Promise<void>;
}

/** Timers and randomness, injectable so tests drive the loop with a fake clock. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** In [0, 1). */
  random(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  random: () => Math.random(),
};

export interface TypingLoop {
  /** Ends the loop and sends the final typing-off (always; its failure is logged). Never throws. */
  stop(): Promise<void>;
  /** Calls made so far and failures seen (for logs and tests). */
  readonly calls: number;
  readonly failures: number;
}

const jitter = (clock: Clock, range: { min: number; max: number }) => range.min + Math.floor(clock.random() * (range.max - range.min + 1));

/**
 * Starts the loop: after the initial delay, typing on, a jittered on-window, typing off, a jittered pause, and
 * again, until `stop()` or the maximum duration. A failed call is logged and counted; after `maxFailures` the loop
 * goes silent (no more on/off calls). Nothing here ever throws into the caller or delays generation or the send.
 */
export function startTypingLoop(adapter: TypingAdapter, log: Logger, clock: Clock = systemClock, constants: TypingConstants = TYPING_INDICATOR): TypingLoop {
  const startedAt = clock.now();
  let stopped = false;
  let silent = false;
  let calls = 0;
  let failures = 0;
  let timer: unknown;
  let inflight: Promise<void> = Promise.resolve();

  const call = async (on: boolean, final = false): Promise<void> => {
    calls++;
    try {
      await adapter.typing(on);
    } catch (err) {
      failures++;
      log.warn({ err: { message: (err as Error)?.message, code: (err as { code?: string })?.code }, on, final, failures }, 'typing indicator call failed (ignored)');
      if (!silent && failures >= constants.maxFailures) {
        silent = true;
        log.warn({ failures }, 'typing indicator loop silent after repeated failures');
      }
    }
  };
  const expired = () => clock.now() - startedAt >= constants.maxLoopMs;
  const schedule = (ms: number, next: () => void) => {
    if (stopped || silent || expired()) return;
    timer = clock.setTimeout(next, ms);
  };
  const turnOn = () => {
    if (stopped || silent || expired()) return;
    inflight = call(true).then(() => schedule(jitter(clock, constants.typingOnMs), turnOff));
  };
  const turnOff = () => {
    if (stopped || silent) return;
    inflight = call(false).then(() => schedule(jitter(clock, constants.typingOffMs), turnOn));
  };
  schedule(jitter(clock, constants.initialDelayMs), turnOn);

  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      clock.clearTimeout(timer);
      await inflight;
      await call(false, true);
    },
    get calls() {
      return calls;
    },
    get failures() {
      return failures;
    },
  };
}
