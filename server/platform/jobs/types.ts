import type { Knex } from 'knex';
import type { Logger } from '../logger.ts';

/**
 * The running app's services as a job handler sees them: the app's `AppContext` (server/platform/context.ts fills
 * this interface in by declaration merging, so the job engine never imports the context that holds it).
 */
export interface JobApp {}

/** What a handler learns about the job it runs, besides its data. */
export interface JobContext {
  id: string;
  queue: string;
  /** 1 on the first run; a retry (or a run after a crash or a time-out) counts up. */
  attempt: number;
  /** The run is the last one when `attempt > retryLimit`. */
  retryLimit: number;
  createdOn: Date;
  /** A child of the app's logger carrying `queue`, `jobId` and `attempt`. */
  log: Logger;
  /** The running app's services (database, config, integrations), when the engine was started with them. */
  app: JobApp | undefined;
}

/**
 * One queue and its handler, exported by a module from `server/modules/<area>/jobs.ts` (`export const jobs`)
 * and listed in `server/platform/jobs/registry.ts`.
 *
 * Delivery is at least once: a job whose process dies, or that outlives `expireInSeconds`, runs again.
 * Handlers must be idempotent (check what is already done, write with a unique key or `on conflict`).
 */
export interface QueueDefinition<T extends object = any> {
  /** Letters, digits, `_`, `-`, `.`; by convention `<area>.<what>` (e.g. `mail.send`). */
  name: string;
  /** Resolves: the job is completed. Throws or rejects: the job is retried, then failed. */
  handler(data: T, job: JobContext): Promise<unknown>;
  /** Retries after the first run (0: run once). */
  retryLimit: number;
  /** Seconds before a retry; with `retryBackoff` the base of an exponential, jittered delay. */
  retryDelay: number;
  retryBackoff: boolean;
  /**
   * A run that has not finished after this long is failed (and retried): keep it a little above the longest honest
   * run. It no longer bounds how long the job of a process that died stays `active` on PostgreSQL: a live run sends
   * heartbeats, and a run silent for JOB_LOST_AFTER_SECONDS (30 s) is put back to run again at once (engine.ts).
   */
  expireInSeconds: number;
  /** pg-boss queue policy (default `standard`): `singleton` = one active job at a time, `stately` = one per state, `short` = one queued. */
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  /** Jobs run at once by this process (default 1). */
  concurrency?: number;
  /** Minutes a queued job may wait before it is dropped (pg-boss default: 14 days). */
  retentionMinutes?: number;
}

export interface EnqueueOptions {
  /**
   * The open knex transaction the job belongs to: the job is inserted on the transaction's connection, so it
   * exists only if the transaction commits (outbox). Required whenever a transaction is open on PGlite.
   */
  trx?: Knex.Transaction;
  /** Not before: a date, an ISO string, or seconds from now. */
  startAfter?: Date | string | number;
  /** With a `singleton`/`stately`/`short` queue policy: at most one queued job per key (enqueue answers null for the others). */
  singletonKey?: string;
  /**
   * A write (an `INSERT`, `UPDATE` or `DELETE` query builder or raw) made in the same SQL statement as the job's
   * insert, as a data-modifying `WITH`: both or neither, in one round trip and one commit, without opening a
   * transaction. For a request whose only work is "record this and queue it" (the chat-platform webhook's
   * acknowledgement); the job's data must not depend on the write's result (generate ids beforehand). Concurrent
   * ones are group-committed (see the engine's `flushAlongside`): a refused write fails only its own enqueue. Only for
   * queues without a singleton policy (the job's insert must not be skipped while the write happens), and not
   * with `trx` (inside a transaction, write first and enqueue with `trx`).
   */
  alongside?: Knex.QueryBuilder | Knex.Raw;
}

export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

export interface QueueStats {
  name: string;
  /** Jobs in the live table (completed and failed jobs move to the archive after 12 h). */
  counts: Record<JobState, number>;
}

export interface JobFailure {
  id: string;
  queue: string;
  /** When the last attempt failed (ISO). */
  failedAt: string;
  error: string | null;
  attempts: number;
}

export interface JobStats {
  queues: QueueStats[];
  /** The latest failed jobs, newest first. */
  failures: JobFailure[];
}

export interface JobHealth {
  /** Started and its schema answers. */
  ok: boolean;
  started: boolean;
  /** This process runs workers (otherwise it only enqueues). */
  workers: boolean;
  error?: string;
}

export interface JobEngineStartOptions {
  /** Poll the queues (default: the configuration's, PROCESS_ROLE). */
  workers?: boolean;
  /** The app the handlers get. */
  app?: JobApp;
  /**
   * Start the workers only once this settles (main.ts: the server listening); `start` resolves as soon as the
   * queues are declared. Without it `start` resolves with the workers polling.
   */
  workersAfter?: Promise<unknown>;
}

export interface JobEngine {
  readonly started: boolean;
  readonly workers: boolean;
  /**
   * Starts pg-boss (creating or upgrading its `pgboss` schema), creates or updates the registered queues, and,
   * with `workers`, starts polling them (after failing, on the embedded database, jobs a dead process left
   * active, so they are retried).
   */
  start(options?: JobEngineStartOptions): Promise<void>;
  /** Stops polling, waits for the jobs under way (at most the shutdown timeout), then lets go of the database. */
  stop(): Promise<void>;
  /** Queues a job on a registered queue; its id, or null when a singleton key already has one queued. */
  enqueue<T extends object>(queue: string, data: T, options?: EnqueueOptions): Promise<string | null>;
  /** Counts by state for every queue, and the last `failures` (default 20) failed jobs. */
  stats(options?: { failures?: number }): Promise<JobStats>;
  /** For readiness: started, and the schema answers within `timeoutMs` (default 2000). */
  health(options?: { timeoutMs?: number }): Promise<JobHealth>;
}
