/**
 * The guest's holds of one event, admitted in this process before they take the event's row lock (issue 25 §8).
 *
 * Under contention (200 guests at once for the last 10 seats) every hold used to queue for the event's row lock,
 * each with a database connection, even the 190 that would be refused — and the refusals waited for the 10 that
 * fit. The gate answers what is certainly refused before the lock, from an unlocked read, and lets through to the
 * lock only as many holds as there are seats left:
 *
 * - a request is admitted while the seats a read leaves, less the seats of the holds this process has already
 *   admitted and not yet settled, can take it; it then runs the locked transaction, which stays the authority
 *   (other processes and staff bookings go straight to the lock, so nothing is ever oversold). Any read may
 *   admit, also one already running when the request came (the first request's, under a rush);
 * - only a **fresh** read may refuse (one that started after the request arrived, or after it was woken): it
 *   refuses at once when the seats that read leaves cannot take it (sold out, not enough seats — certain: the read
 *   counts committed bookings only, and a cancellation or expiry committed before the read started is in it, so
 *   nothing stale refuses anyone);
 * - otherwise it waits — holding no connection — until the admitted holds have settled far enough that a new
 *   read may answer it (see `settled`: one failed, so its seats are free again; or fewer seats in flight than it
 *   asks for), and judges a new read.
 *
 * Requests of one event waiting together share one read (`FreshRead`): 190 waiters woken together cost one
 * statement, not 190; and they are woken once the 10 holds in flight have settled, not at each. Nothing that
 * refuses is remembered between requests: the state of an event lives only while a request for it is in the gate.
 * What is remembered (`seen`, a bounded map) only spares the read: an event that had plenty of seats left at a
 * recent read (at least `PLENTY` beyond the holds in flight here) goes straight to the lock, which judges it alone,
 * as every hold did before — an old figure there can only cost a refusal at the lock, never a refusal here.
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
  /** Waiting for admitted holds to settle (see `settled`): the seats each asks for, its wake-up (given the read clock then). */
  waiters: Array<{ seats: number; wake: (since: number) => void }>;
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
      let failed = true;
      try {
        const answer = await hold();
        failed = false;
        return answer;
      } finally {
        state.admitted -= seats;
        this.settled(state, failed);
      }
    };
    try {
      const last = this.seen.get(event);
      if (last && Date.now() - last.at < PLENTY_FOR_MS && last.left - state.admitted - seats >= PLENTY) return await admit();
      for (;;) {
        const reads = state.reads.get(readKey) ?? new FreshRead<unknown>();
        state.reads.set(readKey, reads);
        // A read already running, though it began before this request came, may admit it (the lock judges it
        // anyway); only a fresh one may refuse it or make it wait.
        const older = reads.olderThan(since);
        const roomAtOlder = older ? await leftBy(older as Promise<S>, judge) : undefined;
        if (roomAtOlder !== undefined && roomAtOlder - state.admitted >= seats) return await admit();
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
        since = await new Promise<number>((wake) => state.waiters.push({ seats, wake }));
      }
    } finally {
      if (--state.users === 0) this.events.delete(event);
    }
  }

  /** Events with a request in the gate (for tests: it empties once they are answered). */
  get size(): number {
    return this.events.size;
  }

  /**
   * An admitted hold has settled. Failed (refused at the lock, or an error), its seats are free again: every waiter
   * judges a new read. Committed, its seats left the count as they left the holds in flight, so a new read would
   * leave each waiter just what the last one did — unless something else moved (a cancellation, another process's
   * hold), which the waiters see at their next read: only those asking for more seats than are still in flight
   * wake now (a read may now refuse them), the others once enough of those holds have settled. Under a rush of
   * 200 for 10 seats that is one read once the 10 have settled, not one (and 190 judgements) per hold.
   */
  private settled(state: EventState, failed: boolean): void {
    const woken = failed ? state.waiters : state.waiters.filter((waiter) => waiter.seats > state.admitted);
    if (woken.length === 0) return;
    state.waiters = failed ? [] : state.waiters.filter((waiter) => waiter.seats <= state.admitted);
    const now = FreshRead.now();
    for (const waiter of woken) waiter.wake(now);
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

/** The seats `read` leaves by `judge`, or undefined for any other judgement (a refusal among them: it is not thrown). */
async function leftBy<S, T>(read: Promise<S>, judge: (snapshot: S) => Promise<Judgement<T>>): Promise<number | undefined> {
  try {
    const judgement = await judge(await read);
    return 'left' in judgement ? judgement.left : undefined;
  } catch {
    return undefined;
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
  private current?: { seq: number; promise: Promise<S> };
  private next?: Promise<S>;

  static now(): number {
    return readsStarted;
  }

  /** The read under way when it started at or before `since` (one `fresh` would not give that caller). */
  olderThan(since: number): Promise<S> | undefined {
    return this.current && this.current.seq <= since ? this.current.promise : undefined;
  }

  fresh(read: () => Promise<S>, since: number): Promise<S> {
    if (!this.current) return this.start(read);
    if (this.current.seq > since) return this.current.promise;
    this.next ??= this.current.promise.then(
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
    this.current = running;
    const done = () => {
      if (this.current === running) this.current = undefined;
    };
    promise.then(done, done);
    return promise;
  }
}
