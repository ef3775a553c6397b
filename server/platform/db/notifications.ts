import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type pg from 'pg';
import type { Logger } from '../logger.ts';
import type { Database } from './database.ts';

/**
 * The invalidation channel: how one process tells every process (itself included) that something it may keep in
 * memory has changed — an API key disabled, an account banned, a catalog row written.
 *
 * - `publish(topic, payload, trx?)` applies the message in this process at once (without a transaction) or as soon
 *   as `trx` has committed (never when it rolls back), and on PostgreSQL sends it to every other process with
 *   `pg_notify` — inside `trx` when given, so a rolled-back write notifies nobody.
 * - `subscribe(topic, handler)` runs `handler(payload)` for each message on `topic`, from this process or another.
 * - On PostgreSQL a dedicated connection (not one of the knex pool's) `LISTEN`s on the channel and reconnects by
 *   itself with backoff (0.1 s doubling to 5 s) when it drops. Messages sent while it was away are lost, so a
 *   (re)connection calls every subscriber's `reset` (or its handler with `undefined`): everything may have changed.
 * - On the embedded database there is one process: delivery is in-process only.
 *
 * Payloads are small JSON values (PostgreSQL caps a notification at 8000 bytes); they say what changed, never
 * why or anything secret (a key id, an account id, not a key).
 */

/** The PostgreSQL channel name. */
export const INVALIDATION_CHANNEL = 'venue_invalidate';

export type Payload = Record<string, unknown> | undefined;

export interface Subscription {
  /** A message on the topic (from this process or another). */
  handle(payload: Payload): void;
  /** Messages may have been lost (the listening connection was re-established): forget everything. */
  reset(): void;
}

export interface Notifications {
  readonly kind: 'postgres' | 'in-process';
  publish(topic: string, payload?: Payload, trx?: Knex.Transaction): Promise<void>;
  /** Answers the removal. */
  subscribe(topic: string, subscription: Subscription | ((payload: Payload) => void)): () => void;
  /** Resolves once the channel listens (immediately in-process); tests use it before relying on delivery. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

interface Envelope {
  /** The sending process (its own messages are applied when published, not again when they come back). */
  o: string;
  t: string;
  p?: Payload;
}

const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5_000;

class Channel implements Notifications {
  private readonly subscribers = new Map<string, Set<Subscription>>();
  private readonly origin = randomUUID();
  private client: pg.Client | undefined;
  private closed = false;
  private backoffMs = MIN_BACKOFF_MS;
  private retry: NodeJS.Timeout | undefined;
  private listening: Promise<void>;
  private markListening: () => void = () => {};

  constructor(
    readonly kind: 'postgres' | 'in-process',
    private readonly knex: Knex,
    private readonly logger: Logger,
    private readonly databaseUrl: string | undefined,
  ) {
    this.listening = new Promise((resolve) => {
      this.markListening = resolve;
    });
    if (kind === 'in-process') this.markListening();
    else void this.connect(false);
  }

  subscribe(topic: string, subscription: Subscription | ((payload: Payload) => void)): () => void {
    const entry: Subscription = typeof subscription === 'function' ? { handle: subscription, reset: () => subscription(undefined) } : subscription;
    let set = this.subscribers.get(topic);
    if (!set) this.subscribers.set(topic, (set = new Set()));
    set.add(entry);
    return () => set.delete(entry);
  }

  async publish(topic: string, payload?: Payload, trx?: Knex.Transaction): Promise<void> {
    if (this.kind === 'postgres') {
      const envelope: Envelope = { o: this.origin, t: topic, ...(payload === undefined ? {} : { p: payload }) };
      await (trx ?? this.knex).raw('select pg_notify(?, ?)', [INVALIDATION_CHANNEL, JSON.stringify(envelope)]);
    }
    if (!trx) {
      this.deliver(topic, payload);
      return;
    }
    // Applied here once the outermost transaction has committed; never on a rollback (the notification above is
    // dropped with it). A read that began before is not remembered: the caches count their invalidations.
    let root = trx as Knex.Transaction & { parentTransaction?: Knex.Transaction };
    while (root.parentTransaction) root = root.parentTransaction as typeof root;
    root.executionPromise.then(
      () => this.deliver(topic, payload),
      () => {},
    );
  }

  ready(): Promise<void> {
    return this.listening;
  }

  private deliver(topic: string, payload: Payload): void {
    for (const subscription of this.subscribers.get(topic) ?? []) {
      try {
        subscription.handle(payload);
      } catch (err) {
        this.logger.error({ err, topic }, 'invalidation subscriber failed');
      }
    }
  }

  private resetAll(): void {
    for (const set of this.subscribers.values()) {
      for (const subscription of set) {
        try {
          subscription.reset();
        } catch (err) {
          this.logger.error({ err }, 'invalidation subscriber reset failed');
        }
      }
    }
  }

  private onNotification = (message: pg.Notification) => {
    if (message.channel !== INVALIDATION_CHANNEL || !message.payload) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message.payload) as Envelope;
    } catch {
      this.logger.warn({ payload: message.payload.slice(0, 200) }, 'invalidation message is not JSON; ignored');
      return;
    }
    if (envelope.o === this.origin || typeof envelope.t !== 'string') return;
    this.deliver(envelope.t, envelope.p);
  };

  private async connect(again: boolean): Promise<void> {
    if (this.closed) return;
    const { default: pgModule } = await import('pg');
    const client = new pgModule.Client({ connectionString: this.databaseUrl, application_name: 'venue invalidation listener' });
    let dropped = false;
    const drop = (err?: unknown) => {
      if (dropped) return;
      dropped = true;
      if (this.client === client) this.client = undefined;
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (this.closed) return;
      this.logger.warn({ err, retryInMs: this.backoffMs }, 'invalidation listener lost its connection; reconnecting');
      this.scheduleReconnect();
    };
    client.on('error', drop);
    client.on('end', () => drop());
    client.on('notification', this.onNotification);
    try {
      await client.connect();
      await client.query(`LISTEN ${INVALIDATION_CHANNEL}`);
    } catch (err) {
      drop(err);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.backoffMs = MIN_BACKOFF_MS;
    // The listener alone never keeps a process alive (a server has its HTTP server for that; a script or a test
    // that forgot to close its app may exit).
    (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
    // Whatever was sent while nobody listened is lost: everything remembered may be stale.
    if (again) {
      this.logger.info('invalidation listener reconnected; caches cleared');
      this.resetAll();
    }
    this.markListening();
  }

  private scheduleReconnect(): void {
    if (this.retry || this.closed) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs * 2);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect(true);
    }, delay);
    this.retry.unref();
  }

  /** The listening connection's server process id (tests end it to check the reconnection). */
  get listenerPid(): number | undefined {
    return (this.client as unknown as { processID?: number } | undefined)?.processID;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => {});
      await client.end().catch(() => {});
    }
  }
}

/** The channel for `db`: LISTEN/NOTIFY on PostgreSQL (a connection of its own to `databaseUrl`), in-process on PGlite. */
export function createNotifications(db: Pick<Database, 'knex' | 'kind'>, logger: Logger, databaseUrl: string | undefined): Notifications {
  return db.kind === 'postgres' && databaseUrl ? new Channel('postgres', db.knex, logger, databaseUrl) : new Channel('in-process', db.knex, logger, undefined);
}
