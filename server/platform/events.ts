/**
 * Domain events, in-process (DESIGN.md "Domain events"). A command publishes an event inside its unit of work;
 * the subscribers declared in the module records receive it in their declared order:
 *
 * - `in-transaction` subscribers run at once, inside the publisher's transaction (seats, money, credit): what
 *   they write commits or rolls back with the command, and one that throws rolls the command back;
 * - `after-commit` subscribers are queued on the unit of work and run once it has committed (e-mail, analytics,
 *   conversions); a failure there is logged and never undoes the command.
 *
 * The bus knows no venue: the event map (`server/domain/events.ts`) and the subscribers (the module records) are
 * given to it at boot. `table()` lists each event's subscribers in order, so a new effect is a visible diff.
 */

export type Phase = 'in-transaction' | 'after-commit';

/** What every subscriber is handed besides the payload: the unit of work it runs in. */
export interface EventContext {
  /** Queues `task` to run once the publisher's transaction has committed. */
  afterCommit(task: () => void | Promise<void>): void;
}

export interface Subscriber<Events, Context extends EventContext, E extends keyof Events = keyof Events> {
  /** `<module>.<what it does>`, unique: it names the subscriber in logs, in the table and in results. */
  name: string;
  event: E;
  phase: Phase;
  /** Lower runs first; ties are refused at boot, so the order is always declared. */
  order: number;
  handle(payload: Events[E], context: Context): unknown | Promise<unknown>;
}

/** A subscriber to any one event of the map (what module records list). */
export type AnySubscriber<Events, Context extends EventContext> = { [E in keyof Events]: Subscriber<Events, Context, E> }[keyof Events];

/** One subscriber's answer to a publish (in-transaction subscribers only; after-commit ones answer nothing). */
export interface SubscriberResult {
  name: string;
  result: unknown;
}

export class EventBus<Events, Context extends EventContext> {
  private readonly byEvent = new Map<keyof Events, Array<AnySubscriber<Events, Context>>>();

  constructor(subscribers: ReadonlyArray<AnySubscriber<Events, Context>>) {
    const names = new Set<string>();
    for (const subscriber of subscribers) {
      if (names.has(subscriber.name)) throw new Error(`event subscriber ${subscriber.name} is declared twice`);
      names.add(subscriber.name);
      this.byEvent.set(subscriber.event, [...(this.byEvent.get(subscriber.event) ?? []), subscriber]);
    }
    for (const [event, list] of this.byEvent) {
      list.sort((a, b) => a.order - b.order);
      for (let i = 1; i < list.length; i++) {
        if (list[i].order === list[i - 1].order) {
          throw new Error(`event ${String(event)}: subscribers ${list[i - 1].name} and ${list[i].name} share order ${list[i].order}; declare which runs first`);
        }
      }
    }
  }

  /** The subscribers of `event`, in the order they run. */
  subscribersOf<E extends keyof Events>(event: E): ReadonlyArray<Subscriber<Events, Context, E>> {
    return (this.byEvent.get(event) ?? []) as unknown as Array<Subscriber<Events, Context, E>>;
  }

  /**
   * Runs `event`'s in-transaction subscribers in order (awaiting each) and queues its after-commit ones on the
   * unit of work; answers what each in-transaction subscriber returned.
   */
  async publish<E extends keyof Events>(event: E, payload: Events[E], context: Context): Promise<SubscriberResult[]> {
    const results: SubscriberResult[] = [];
    for (const subscriber of this.subscribersOf(event)) {
      if (subscriber.phase === 'in-transaction') {
        results.push({ name: subscriber.name, result: await subscriber.handle(payload, context) });
      } else {
        context.afterCommit(() => subscriber.handle(payload, context) as void | Promise<void>);
      }
    }
    return results;
  }

  /** Every event with its subscribers in order: `['<order> <phase> <name>', …]` per event (for the review test). */
  table(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const event of [...this.byEvent.keys()].map(String).sort()) {
      out[event] = this.subscribersOf(event as keyof Events).map((s) => `${s.order} ${s.phase} ${s.name}`);
    }
    return out;
  }

  /**
   * Adds a subscriber for the life of one test (a spec that observes or breaks an event's handling); answers its
   * removal. Production subscribers are declared in module records, never attached.
   */
  attachForTest(subscriber: AnySubscriber<Events, Context>): () => void {
    const list = [...(this.byEvent.get(subscriber.event) ?? []), subscriber].sort((a, b) => a.order - b.order);
    this.byEvent.set(subscriber.event, list);
    return () => {
      this.byEvent.set(
        subscriber.event,
        (this.byEvent.get(subscriber.event) ?? []).filter((s) => s !== subscriber),
      );
    };
  }
}
