/**
 * The guest's holds of one event, admitted in this process before they take the event's row lock (issue 25 §8).
 *
 * Under contention (200 guests at once for the last 10 seats) every hold used to queue for the event's row lock,
 * each with a database connection, even the 190 that would be refused — and the refusals waited for the 10 that
 * fit. The gate answers what is certainly refused before the lock, from an unlocked read, and lets through to the
 * lock only as many holds as there are seats left:
 *
 * - each request judges a **fresh** read of the event (one that started after the request arrived, or after the
 *   last hold of the event settled in this process): it refuses at once when the seats left by that read cannot
 *   take it (sold out, not enough seats — certain: the read counts committed bookings only, and a cancellation or
 *   expiry committed before the read started is in it, so nothing stale refuses anyone);
 * - otherwise it is admitted while the seats the read leaves, less the seats of the holds this process has already
 *   admitted and not yet settled, can take it; it then runs the locked transaction, which stays the authority
 *   (other processes and staff bookings go straight to the lock, so nothing is ever oversold);
 * - otherwise it waits — holding no connection — until one of those admitted holds settles (committed: its seats
 *   are taken; refused or failed: they are free again), and judges a new read.
 *
 * Requests of one event waiting together share one read (`FreshRead`): 190 waiters woken by one settled hold
 * cost one statement, not 190. Nothing that refuses is remembered between requests: the state of an event lives
 * only while a request for it is in the gate. What is remembered (`seen`, a bounded map) only spares the read:
 * an event that had plenty of seats left at a recent read (at least `PLENTY` beyond the holds in flight here)
 * goes straight to the lock, which judges it alone, as every hold did before — an old figure there can only cost
 * a refusal at the lock, never a refusal here.
 */

/** Seats beyond the holds in flight that make the read not worth its statement. */
export const PLENTY = 64;
/** How long a read's figure is trusted for that (ms). */
export const PLENTY_FOR_MS = 2_000;
/** Events whose last figure is kept. */
const SEEN_MAX = 1_000;

/** What a request makes of a read: go to the lock unjudged, the seats the read leaves (it fits them), or its answer. */
export type Judgement<T> = { bypass: true } | { left: number } | { answer: T };

interface EventState {
  /** Seats of the holds admitted here and not yet settled. */
  admitted: number;
  /** Requests in the gate for this event (the state is dropped when none is). */
  users: number;
  /** Woken when an admitted hold settles, with the read clock of that moment. */
  waiters: Array<(since: number) => void>;
  /** The shared reads, by what they read (one event may be read with several offers). */
  reads: Map<string, FreshRead<unknown>>;
}

export class SeatGate {
  private readonly events = new Map<string, EventState>();
  /** Seats left at each event's last read that admitted a hold, and when (only to skip a read, see above). */
  private readonly seen = new Map<string, { left: number; at: number }>();

  /**
   * Runs `hold` (the locked transaction) for `seats` of `event` once the gate admits it, or answers without it.
   * `read` is the unlocked read, shared by the waiting requests of one `readKey`; `judge` turns a read into this
   * request's judgement (it throws the refusal). A failed read lets the request through to the lock unjudged.
   */
  async run<S, T>(options: { event: string; readKey: string; seats: number; read: () => Promise<S>; judge: (snapshot: S) => Promise<Judgement<T>>; hold: () => Promise<T> }): Promise<T> {
    const { event, readKey, seats, read, judge, hold } = options;
    const state = this.enter(event);
    let since = FreshRead.now();
    const admit = async () => {
      state.admitted += seats;
      try {
        return await hold();
      } finally {
        state.admitted -= seats;
        const woken = state.waiters;
        state.waiters = [];
        const now = FreshRead.now();
        for (const wake of woken) wake(now);
      }
    };
    try {
      const last = this.seen.get(event);
      if (last && Date.now() - last.at < PLENTY_FOR_MS && last.left - state.admitted - seats >= PLENTY) return await admit();
      for (;;) {
        const reads = state.reads.get(readKey) ?? new FreshRead<unknown>();
        state.reads.set(readKey, reads);
        let snapshot: S;
        try {
          snapshot = (await reads.fresh(read, since)) as S;
        } catch {
          return await hold();
        }
        const judgement = await judge(snapshot);
        if ('answer' in judgement) return judgement.answer;
        if ('bypass' in judgement) return await hold();
        this.remember(event, judgement.left);
        if (judgement.left - state.admitted >= seats) return await admit();
        since = await new Promise<number>((resolve) => state.waiters.push(resolve));
      }
    } finally {
      if (--state.users === 0) this.events.delete(event);
    }
  }

  /** Events with a request in the gate (for tests: it empties once they are answered). */
  get size(): number {
    return this.events.size;
  }

  private remember(event: string, left: number): void {
    this.seen.delete(event);
    this.seen.set(event, { left, at: Date.now() });
    if (this.seen.size > SEEN_MAX) this.seen.delete(this.seen.keys().next().value!);
  }

  private enter(event: string): EventState {
    let state = this.events.get(event);
    if (!state) {
      state = { admitted: 0, users: 0, waiters: [], reads: new Map() };
      this.events.set(event, state);
    }
    state.users++;
    return state;
  }
}

/** Reads started so far, by every `FreshRead`: a logical clock ("started after this moment" is `seq > stamp`). */
let readsStarted = 0;

/**
 * One read at a time, shared: a caller stamped `since` (the clock when it arrived or was woken) gets a read that
 * started after that — it joins the running read if that one is newer, else shares the next one, started once
 * the running one is done.
 */
export class FreshRead<S> {
  private running?: { seq: number; promise: Promise<S> };
  private next?: Promise<S>;

  static now(): number {
    return readsStarted;
  }

  fresh(read: () => Promise<S>, since: number): Promise<S> {
    if (!this.running) return this.start(read);
    if (this.running.seq > since) return this.running.promise;
    this.next ??= this.running.promise.then(
      () => this.startNext(read),
      () => this.startNext(read),
    );
    return this.next;
  }

  private startNext(read: () => Promise<S>): Promise<S> {
    this.next = undefined;
    return this.start(read);
  }

  private start(read: () => Promise<S>): Promise<S> {
    let promise: Promise<S>;
    try {
      promise = read();
    } catch (err) {
      promise = Promise.reject(err);
    }
    const running = { seq: ++readsStarted, promise };
    this.running = running;
    const done = () => {
      if (this.running === running) this.running = undefined;
    };
    promise.then(done, done);
    return promise;
  }
}
