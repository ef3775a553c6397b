import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { knexAdapter, poolAdapter, StatementTracker } from './adapter.ts';
import { observeJob } from '../observability/index.ts';
import type { EnqueueOptions, JobApp, JobEngine, JobEngineStartOptions, JobFailure, JobHealth, JobState, JobStats, QueueDefinition, QueueStats } from './types.ts';

/** pg-boss keeps everything in this schema, out of the app's tables (and of the tests' `resetData` truncation). */
export const JOB_SCHEMA = 'pgboss';
const STATES: JobState[] = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'];
/** Connections of the engine's own pool on PostgreSQL: polling workers, maintenance, completions. */
const POOL_MAX = 4;

/**
 * A queue no one declares: the engine's probes of pg-boss's statements (`learnStatements`) name it, with a job id that
 * does not exist, so they change nothing.
 */
const PROBE_QUEUE = 'venue-engine-probe';
/** The fetch options of every worker (`work`), so that `learnStatements` learns the statement the workers run. */
const WORKER_FETCH = { includeMetadata: true, batchSize: 1, priority: true } as const;

const QUEUE_FIELDS = ['policy', 'retryLimit', 'retryDelay', 'retryBackoff', 'expireInSeconds', 'retentionMinutes', 'deadLetter'] as const;

/**
 * Whether a queue as stored (a `getQueues()` row, whose fields carry the names and units of `PgBoss.Queue`) already
 * has `settings`: every field they set equal. Fields left unset are kept as they are by updateQueue anyway.
 */
export function queueMatches(stored: Record<string, unknown> | undefined, settings: PgBoss.Queue): boolean {
  if (!stored) return false;
  const wanted = settings as Record<(typeof QUEUE_FIELDS)[number], unknown>;
  return QUEUE_FIELDS.every((field) => wanted[field] === undefined || wanted[field] === null || wanted[field] === stored[field]);
}

/**
 * pg-boss's `db` option for its multi-job insert (`insertJobs`, which starts with `WITH defaults as (…)`) that makes
 * `writes` in the same statement: `with w0 as (<write>), w1 as (…), defaults as (…) <insert>`, each write's `$n`
 * placeholders numbered after the ones before it. PostgreSQL runs a data-modifying `WITH` even when nothing reads
 * it, and one statement commits or fails as a whole.
 */
function withWrites(base: PgBoss.Db, writes: Array<Knex.QueryBuilder | Knex.Raw>): PgBoss.Db {
  const natives = writes.map((write) => write.toSQL().toNative());
  return {
    executeSql(text, values = []) {
      const head = /^\s*with\s/i.exec(text);
      if (!head) throw new Error('pg-boss\'s job insert no longer starts with WITH; writes alongside it need another form');
      const all: unknown[] = [...values];
      const ctes = natives.map((native, i) => {
        const offset = all.length;
        all.push(...native.bindings);
        return `w${i} as (${native.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`)})`;
      });
      return base.executeSql(`with ${ctes.join(', ')}, ${text.slice(head[0].length)}`, all);
    },
  };
}

/** pg-boss's multi-job insert takes `startAfter` as text: an ISO time (ending in Z) or an interval. */
function startAfterText(startAfter: Date | string | number | undefined): string | undefined {
  if (startAfter === undefined) return undefined;
  if (startAfter instanceof Date) return startAfter.toISOString();
  if (typeof startAfter === 'number') return `${startAfter} seconds`;
  return new Date(startAfter).toISOString();
}

/** Enqueues alongside a write that wait for the statement in flight, then go together in the next one. */
interface AlongsideEnqueue {
  id: string;
  queue: string;
  data: object;
  startAfter?: string;
  write: Knex.QueryBuilder | Knex.Raw;
  resolve(id: string): void;
  reject(err: unknown): void;
}
/** At most this many enqueues (and writes) in one statement. */
const ALONGSIDE_BATCH = 50;

export interface JobEngineOptions {
  config: Config;
  db: Database;
  logger: Logger;
  /** The queues it serves: the app's are every module's (`QUEUES` of server/modules/index.ts). */
  queues: readonly QueueDefinition[];
  /** Overrides of the configured intervals, for tests (pg-boss's floor: 0.5 s polling, 1 s maintenance). */
  pollingIntervalSeconds?: number;
  maintenanceIntervalSeconds?: number;
  shutdownTimeoutMs?: number;
  lostAfterSeconds?: number;
}

function errorMessage(output: unknown): string | null {
  if (!output || typeof output !== 'object') return output == null ? null : String(output);
  const record = output as { message?: unknown; value?: unknown };
  if (typeof record.message === 'string') return record.message;
  if (typeof record.value === 'string') return record.value;
  if (record.value && typeof record.value === 'object' && typeof (record.value as { message?: unknown }).message === 'string') {
    return (record.value as { message: string }).message;
  }
  return JSON.stringify(output);
}

const iso = (value: unknown): string => (value instanceof Date ? value : new Date(String(value))).toISOString();

/**
 * The durable job engine: pg-boss 10 on the app's database, PGlite or PostgreSQL.
 *
 * - Embedded (PGlite, one connection): pg-boss runs through `knexAdapter(knex)`, borrowing knex's only
 *   connection statement by statement. A process owns its data directory alone, so at start-up every job
 *   still `active` was left by a process that died: it is failed, hence retried.
 * - PostgreSQL: pg-boss gets a small pool of its own from DATABASE_URL (through `poolAdapter`, so the engine
 *   can wait for the statements pg-boss does not await before it ends the pool). Its polling never takes one
 *   of the connections knex keeps for requests, and a slow request never holds up the workers. Jobs of a
 *   process that died are failed (retried) by maintenance once `expireInSeconds` has passed, since other
 *   processes may be running theirs.
 * - Enqueuing inside a transaction uses `knexAdapter(trx)` on both: the job commits with the transaction.
 */
export class PgBossJobEngine implements JobEngine {
  private boss: PgBoss | undefined;
  private pool: pg.Pool | undefined;
  private tracker = new StatementTracker();
  private readonly queues: Map<string, QueueDefinition>;
  private readonly workerIds = new Map<string, string[]>();
  private readonly running = new Set<Promise<unknown>>();
  private state: 'new' | 'starting' | 'started' | 'stopping' | 'stopped' = 'new';
  private starting: Promise<void> | undefined;
  private runWorkers = false;
  private app: JobApp | undefined;
  private readonly log: Logger;
  private readonly alongside: AlongsideEnqueue[] = [];
  private flushingAlongside = false;
  private reclaimTimer: NodeJS.Timeout | undefined;
  private queuesReady = false;
  private reclaiming: Promise<unknown> | undefined;
  /** The workers being started after `workersAfter` (see boot). */
  private workersStarting: Promise<void> | undefined;
  /**
   * pg-boss's statements that complete and fail a job, which its workers run without awaiting them: should one fail
   * (database gone), the rejection would be unhandled and end the process, so the `db` adapter logs it instead (the
   * job stays active and runs again: after a restart on PGlite, once lost on PostgreSQL). Learnt by `learnStatements`.
   */
  private readonly unawaited = new Set<string>();
  /**
   * pg-boss's fetch statement as the workers run it. pg-boss bounds a handler's run by the fetched job's
   * `expireInSeconds` (its stored `expire_in`); with heartbeats that is the silence allowed, not the run's bound, so
   * the `db` adapter gives the fetched jobs their queue's whole `expireInSeconds` back (see `heartbeat`).
   */
  private readonly fetches = new Set<string>();
  /** While `learnStatements` probes: where the statements naming PROBE_QUEUE are recorded. */
  private learning: Set<string> | undefined;

  constructor(private readonly options: JobEngineOptions) {
    this.queues = new Map();
    for (const queue of options.queues) {
      if (this.queues.has(queue.name)) throw new Error(`Job queue "${queue.name}" is registered twice`);
      if (!/^[\w.-]+$/.test(queue.name)) throw new Error(`Job queue name "${queue.name}": use letters, digits, _, - and .`);
      this.queues.set(queue.name, queue);
    }
    this.log = options.logger.child({ component: 'jobs' });
  }

  get started(): boolean {
    return this.state === 'started';
  }

  get workers(): boolean {
    return this.state === 'started' && this.runWorkers;
  }

  private get pollingIntervalSeconds(): number {
    return this.options.pollingIntervalSeconds ?? this.options.config.jobPollIntervalSeconds;
  }

  private get shutdownTimeoutMs(): number {
    return this.options.shutdownTimeoutMs ?? this.options.config.jobShutdownTimeoutMs;
  }

  start(options: JobEngineStartOptions = {}): Promise<void> {
    if (this.state !== 'new') return this.starting ?? Promise.reject(new Error('The job engine was stopped; create another'));
    this.state = 'starting';
    this.starting = this.boot(options).then(
      () => {
        this.state = 'started';
      },
      async (err) => {
        this.state = 'stopped';
        clearInterval(this.reclaimTimer);
        await this.boss?.stop({ graceful: false, close: false }).catch(() => undefined);
        this.tracker.closed = true;
        await this.pool?.end().catch(() => undefined);
        throw err;
      },
    );
    return this.starting;
  }

  private async boot(options: JobEngineStartOptions): Promise<void> {
    const { config, db } = this.options;
    this.runWorkers = options.workers ?? config.jobWorkers;
    this.app = options.app;
    let adapter: PgBoss.Db;
    if (db.kind === 'postgres') {
      // The database knex was opened on (DATABASE_URL in the app; whatever a test or script gave openDatabase).
      const connection = (db.knex.client as { config: { connection?: unknown } }).config.connection;
      if (!connection || (typeof connection !== 'string' && typeof connection !== 'object')) throw new Error('The job engine cannot tell which PostgreSQL database knex uses');
      const target = typeof connection === 'string' ? { connectionString: connection } : (connection as pg.PoolConfig);
      this.pool = new pg.Pool({ ...target, max: POOL_MAX, application_name: 'venue-jobs' });
      this.pool.on('error', (err) => this.log.error({ err }, 'job engine connection error'));
      adapter = poolAdapter(this.pool, this.tracker);
    } else {
      adapter = knexAdapter(db.knex, this.tracker);
    }
    const guarded: PgBoss.Db = {
      executeSql: (text, values) => {
        if (this.learning && values?.[0] === PROBE_QUEUE) this.learning.add(text);
        const result = adapter.executeSql(text, values);
        if (this.fetches.has(text)) {
          const queue = this.queues.get(String(values?.[0]));
          if (!queue || this.expiryOf(queue) === queue.expireInSeconds) return result;
          // pg-boss's own time-out of the handler: the queue's honest run, not the stored expiry (silence + grace).
          return result.then((answer) => {
            for (const row of answer.rows as Array<{ expireInSeconds?: unknown }>) row.expireInSeconds = queue.expireInSeconds;
            return answer;
          });
        }
        if (!this.unawaited.has(text)) return result;
        return result.catch((err: unknown) => {
          this.log.error({ err, jobIds: values?.[1] }, 'could not record the end of a job; it will run again');
          return { rows: [{ count: 0 }] };
        });
      },
    };
    const boss = new PgBoss({
      db: guarded,
      schema: JOB_SCHEMA,
      // No cron schedules yet: the timekeeper would poll a queue of its own for nothing.
      schedule: false,
      // Maintenance (expiring, archiving, deleting) only where workers run; a process that only enqueues leaves it to them.
      supervise: this.runWorkers,
      maintenanceIntervalSeconds: this.options.maintenanceIntervalSeconds ?? config.jobMaintenanceIntervalSeconds,
      pollingIntervalSeconds: this.pollingIntervalSeconds,
    });
    boss.on('error', (err) => this.log.error({ err }, 'job engine error'));
    this.boss = boss;
    await boss.start();

    // The queues as they are, read once: a start whose queues are already declared as wanted (every start but
    // the first and one after a change of settings) writes nothing (two statements per queue took 100+ ms).
    const existing = new Map((await boss.getQueues()).map((stored) => [stored.name, stored as unknown as Record<string, unknown>]));
    for (const queue of this.queues.values()) {
      const settings: PgBoss.Queue = {
        name: queue.name,
        policy: queue.policy ?? 'standard',
        retryLimit: queue.retryLimit,
        retryDelay: queue.retryDelay,
        retryBackoff: queue.retryBackoff,
        expireInSeconds: this.expiryOf(queue),
        ...(queue.retentionMinutes ? { retentionMinutes: queue.retentionMinutes } : {}),
      };
      // createQueue leaves an existing queue alone; updateQueue applies settings changed since it was created.
      // Two processes declaring the same queues at the same moment can deadlock in PostgreSQL (40P01 on pg-boss's
      // queue table); the statement that loses is safe to run again.
      if (queueMatches(existing.get(queue.name), settings)) continue;
      if (!existing.has(queue.name)) await retryOnDeadlock(() => boss.createQueue(queue.name, settings));
      await retryOnDeadlock(() => boss.updateQueue(queue.name, settings));
    }
    this.queuesReady = true;
    if (!this.runWorkers) return;
    if (!options.workersAfter) return this.startWorkers(boss);
    // Started once `workersAfter` settles (the server listening): jobs can be enqueued meanwhile, and the workers'
    // first polls (a statement per worker, on the embedded database's one connection) do not hold up the start.
    void options.workersAfter.then(
      () => {
        if (this.state !== 'started') return;
        this.workersStarting = this.startWorkers(boss, { yieldBetween: true }).catch((err) => this.log.error({ err }, 'job workers could not start'));
      },
      () => undefined,
    );
  }

  /** Fails the embedded database's orphans, starts every queue's workers and (PostgreSQL) the sweep for lost jobs. */
  private async startWorkers(boss: PgBoss, options: { yieldBetween?: boolean } = {}): Promise<void> {
    const { db } = this.options;
    // On the embedded database a statement runs on this thread and holds the one connection: started while the
    // server already answers, the workers' first polls go one at a time with the event loop free in between, so a
    // request arriving meanwhile waits for one poll, not a dozen.
    const between = options.yieldBetween && db.kind === 'embedded' ? () => this.tracker.drain(2000).then(() => new Promise((resolve) => setImmediate(resolve))) : undefined;
    await this.learnStatements(boss);
    if (db.kind === 'embedded') await this.failOrphans(boss);
    for (const queue of this.queues.values()) {
      const ids: string[] = [];
      for (let i = 0; i < Math.max(1, queue.concurrency ?? 1); i++) {
        await between?.();
        ids.push(await this.work(boss, queue));
      }
      this.workerIds.set(queue.name, ids);
    }
    if (db.kind === 'postgres') {
      // Jobs of a process that died come back within jobLostAfterSeconds (plus one sweep): see reclaimLost.
      await this.reclaimLost().catch((err) => this.log.error({ err }, 'reclaiming lost jobs failed'));
      this.reclaimTimer = setInterval(() => {
        if (this.reclaiming || this.state !== 'started') return;
        this.reclaiming = this.reclaimLost()
          .catch((err) => this.log.error({ err }, 'reclaiming lost jobs failed'))
          .finally(() => (this.reclaiming = undefined));
      }, this.sweepSeconds * 1000);
      this.reclaimTimer.unref();
    }
    this.log.info({ queues: [...this.queues.keys()], database: db.kind }, 'job workers started');
  }

  /**
   * Learns the texts of the statements pg-boss's workers run to complete, fail and fetch jobs (see `unawaited`,
   * `fetches`) from pg-boss's public calls that run them: `complete`, `fail` and `fetch` (with the workers' options),
   * each once, on PROBE_QUEUE and a job id that does not exist (no row matches; nothing changes), recorded as they
   * pass through the engine's `db` adapter. So the engine imports none of pg-boss's private files, and follows its
   * SQL should an upgrade change it; an upgrade whose calls run no statement, or several, fails here, loudly.
   */
  private async learnStatements(boss: PgBoss): Promise<void> {
    if (this.fetches.size) return;
    const job = randomUUID();
    try {
      this.learning = this.unawaited;
      await boss.complete(PROBE_QUEUE, job);
      await boss.fail(PROBE_QUEUE, job);
      this.learning = this.fetches;
      await boss.fetch(PROBE_QUEUE, WORKER_FETCH);
    } finally {
      this.learning = undefined;
    }
    if (this.unawaited.size !== 2 || this.fetches.size !== 1) {
      const learnt = { unawaited: this.unawaited.size, fetches: this.fetches.size };
      this.unawaited.clear();
      this.fetches.clear();
      throw new Error(`pg-boss's complete, fail and fetch did not each run one statement of their own (${JSON.stringify(learnt)}): the job engine cannot recognize its workers' statements`);
    }
  }

  /** Seconds of silence after which a run on PostgreSQL is lost (its process died or lost the database). */
  private get lostAfterSeconds(): number {
    return this.options.lostAfterSeconds ?? this.options.config.jobLostAfterSeconds;
  }

  /** How often a running job's heartbeat is written: a third of the silence allowed. */
  private get beatSeconds(): number {
    return Math.max(1, Math.floor(this.lostAfterSeconds / 3));
  }

  /** How often a worker sweeps for lost jobs: as often as it beats, or as maintenance runs when that is more often. */
  private get sweepSeconds(): number {
    const maintenance = this.options.maintenanceIntervalSeconds ?? this.options.config.jobMaintenanceIntervalSeconds;
    return Math.max(1, Math.min(this.beatSeconds, Math.ceil(maintenance)));
  }

  /**
   * Seconds added to a job's stored `expire_in` on PostgreSQL beyond the moment this engine reclaims it: pg-boss's own
   * maintenance expires a job at its stored expiry and retries it only after the queue's `retryDelay`, so the engine's
   * sweep (every sweepSeconds, at once) must come first.
   */
  private get graceSeconds(): number {
    return 2 * this.sweepSeconds;
  }

  /** PostgreSQL, and the queue's honest run is longer than the silence allowed: its runs send heartbeats. */
  private heartbeats(queue: QueueDefinition): boolean {
    return this.options.db.kind === 'postgres' && queue.expireInSeconds > this.lostAfterSeconds;
  }

  /**
   * The `expire_in` a queue's jobs are created with. On PostgreSQL: the silence allowed (jobLostAfterSeconds, or the
   * queue's `expireInSeconds` when shorter) plus graceSeconds; a live run renews it by heartbeats (see heartbeat) up
   * to `expireInSeconds`, so a slow honest run keeps its job while the job of a process that died is reclaimed
   * jobLostAfterSeconds after its last heartbeat. On the embedded database one process owns the jobs and its restart
   * fails those it left active: the queue's `expireInSeconds` as it is.
   */
  private expiryOf(queue: QueueDefinition): number {
    if (this.options.db.kind !== 'postgres') return queue.expireInSeconds;
    return (this.heartbeats(queue) ? this.lostAfterSeconds : queue.expireInSeconds) + this.graceSeconds;
  }

  /**
   * While a handler runs (a queue that heartbeats), every third of jobLostAfterSeconds: the job's expiry is moved to
   * jobLostAfterSeconds from now (never past `expireInSeconds` after its start), plus graceSeconds. A failed write is
   * logged; the run goes on (should the job be reclaimed meanwhile, its handler is idempotent).
   */
  private heartbeat(queue: QueueDefinition, jobId: string, log: Logger): () => void {
    if (!this.boss || !this.heartbeats(queue)) return () => undefined;
    const db = this.boss.getDb();
    const timer = setInterval(() => {
      db.executeSql(
        `update ${JOB_SCHEMA}.job
            set expire_in = least($3::float8 * interval '1 second', now() - started_on + $4::float8 * interval '1 second') + $5::float8 * interval '1 second'
          where name = $1 and id = $2 and state = 'active'`,
        [queue.name, jobId, queue.expireInSeconds, this.lostAfterSeconds, this.graceSeconds],
      ).catch((err: unknown) => log.warn({ err }, 'job heartbeat failed'));
    }, this.beatSeconds * 1000);
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * PostgreSQL: puts back the jobs whose run fell silent (its process died, or lost the database for longer than
   * jobLostAfterSeconds), or outlived its queue's `expireInSeconds`, to run again AT ONCE, on any worker, while
   * attempts remain (else failed). pg-boss's own maintenance would do the same graceSeconds later, and retry only after
   * the queue's `retryDelay` with backoff (half a minute and more for e-mail): that delay is for a handler that
   * failed, not for a process that vanished. One statement, taking only the rows no one else holds: several workers
   * sweeping at once never put a job back twice. Standard-policy queues of this app only (the others are left to
   * pg-boss's maintenance).
   */
  async reclaimLost(): Promise<Array<{ name: string; id: string; state: string }>> {
    if (!this.boss) return [];
    const names = [...this.queues.values()].filter((queue) => (queue.policy ?? 'standard') === 'standard').map((queue) => queue.name);
    const { rows } = await this.boss.getDb().executeSql(
      `with lost as (
         select name, id from ${JOB_SCHEMA}.job
          where state = 'active' and started_on + expire_in - $2::float8 * interval '1 second' < now() and name = any($1::text[])
          for update skip locked
       )
       update ${JOB_SCHEMA}.job j
          set state = case when j.retry_count < j.retry_limit then 'retry'::${JOB_SCHEMA}.job_state else 'failed'::${JOB_SCHEMA}.job_state end,
              start_after = case when j.retry_count < j.retry_limit then now() else j.start_after end,
              completed_on = case when j.retry_count < j.retry_limit then null else now() end,
              output = jsonb_build_object('value', jsonb_build_object('message', 'lost: the process running it stopped answering, or the run outlived its expireInSeconds'))
         from lost
        where j.name = lost.name and j.id = lost.id
       returning j.name, j.id, j.state::text as state`,
      [names, this.graceSeconds],
    );
    const reclaimed = rows as Array<{ name: string; id: string; state: string }>;
    if (reclaimed.length) {
      this.log.warn({ jobs: reclaimed }, 'jobs lost by a process that stopped answering: put back to run again');
      for (const queue of new Set(reclaimed.filter((job) => job.state === 'retry').map((job) => job.name))) this.wake(queue);
    }
    return reclaimed;
  }

  /** Embedded database only: the jobs a dead process left active are failed, so retried while attempts remain. */
  private async failOrphans(boss: PgBoss): Promise<void> {
    const { rows } = await boss.getDb().executeSql(`select name, id from ${JOB_SCHEMA}.job where state = 'active'`, []);
    const byQueue = new Map<string, string[]>();
    for (const row of rows as Array<{ name: string; id: string }>) byQueue.set(row.name, [...(byQueue.get(row.name) ?? []), row.id]);
    for (const [name, ids] of byQueue) {
      for (const id of ids) await boss.fail(name, id, { message: 'interrupted: the process stopped while the job was active' });
      this.log.warn({ queue: name, jobIds: ids }, 'jobs interrupted by a stop were failed, to be retried');
    }
  }

  private async work(boss: PgBoss, queue: QueueDefinition): Promise<string> {
    let workerId: string | undefined;
    const id = await boss.work<object>(
      queue.name,
      { ...WORKER_FETCH, pollingIntervalSeconds: this.pollingIntervalSeconds },
      ([job]) => {
        const attempt = job.retryCount + 1;
        const log = this.log.child({ queue: queue.name, jobId: job.id, attempt });
        // A span per job and its count by result, when tracing or metrics are on (server/platform/observability).
        const run = observeJob(this.app, queue.name, { id: job.id, attempt }, async () => {
          const stopHeartbeat = this.heartbeat(queue, job.id, log);
          try {
            const result = await queue.handler(job.data, { id: job.id, queue: queue.name, attempt, retryLimit: job.retryLimit, createdOn: job.createdOn, log, app: this.app });
            log.debug('job completed');
            return result;
          } catch (err) {
            log.warn({ err }, attempt > job.retryLimit ? 'job failed: no attempts left' : 'job failed; it will be retried');
            throw err;
          } finally {
            stopHeartbeat();
            // Workers poll; a worker that has just finished a job looks for the next one at once instead of
            // sleeping a polling interval (it sleeps only when the queue is empty).
            if (workerId && this.state === 'started') boss.notifyWorker(workerId);
          }
        });
        this.running.add(run);
        const forget = () => this.running.delete(run);
        run.then(forget, forget);
        return run;
      },
    );
    workerId = id;
    return id;
  }

  private wake(queue: string): void {
    if (this.state !== 'started') return;
    for (const id of this.workerIds.get(queue) ?? []) this.boss?.notifyWorker(id);
  }

  async enqueue<T extends object>(queue: string, data: T, options: EnqueueOptions = {}): Promise<string | null> {
    // From the moment the queues exist: a worker started during boot may run a job that enqueues another.
    if (!(this.state === 'started' || (this.state === 'starting' && this.queuesReady)) || !this.boss) throw new Error(`Cannot enqueue on "${queue}": the job engine is not started`);
    if (!this.queues.has(queue)) throw new Error(`Unknown job queue "${queue}" (declare it in its module's record)`);
    const { trx, startAfter, singletonKey, alongside } = options;
    if (trx?.isCompleted()) throw new Error(`Cannot enqueue on "${queue}": the transaction has ended`);
    if (alongside) {
      if (trx || singletonKey !== undefined || (this.queues.get(queue)?.policy ?? 'standard') !== 'standard') {
        throw new Error(`Cannot enqueue on "${queue}" alongside a write: not inside a transaction, nor with a singleton policy`);
      }
      const entry = { id: randomUUID(), queue, data, write: alongside, startAfter: startAfterText(startAfter) };
      return new Promise<string>((resolve, reject) => {
        this.alongside.push({ ...entry, resolve, reject });
        if (!this.flushingAlongside) void this.flushAlongside();
      });
    }
    const id = await this.boss.send(queue, data, {
      ...(trx ? { db: knexAdapter(trx) } : {}),
      ...(startAfter !== undefined ? { startAfter } : {}),
      ...(singletonKey !== undefined ? { singletonKey } : {}),
    });
    if (id && startAfter === undefined && this.workerIds.has(queue)) {
      // A worker of this process picks the job up now rather than at its next poll (after the commit).
      if (trx) trx.executionPromise.then(() => this.wake(queue), () => undefined);
      else this.wake(queue);
    }
    return id;
  }

  /**
   * Group commit for `alongside` enqueues: the first goes at once, in a statement of its own; those that arrive
   * while a statement is in flight wait for it, then go together in the next one (a job and a write each, in one
   * statement, at most ALONGSIDE_BATCH). A lone request waits for nothing extra; under a burst (a chat platform's
   * broadcast) the requests share one round trip and one commit instead of taking one each. Should a batch fail
   * (one member's write refused), each of its members is written alone, so only that one fails.
   */
  private async flushAlongside(): Promise<void> {
    this.flushingAlongside = true;
    try {
      while (this.alongside.length) {
        const batch = this.alongside.splice(0, ALONGSIDE_BATCH);
        const settle = async (members: AlongsideEnqueue[]) => {
          await this.writeAlongside(members);
          for (const member of members) member.resolve(member.id);
        };
        await settle(batch).catch(async (err) => {
          if (batch.length === 1) return batch[0].reject(err);
          await Promise.all(batch.map((member) => settle([member]).catch((alone) => member.reject(alone))));
        });
        for (const queue of new Set(batch.filter((member) => member.startAfter === undefined).map((member) => member.queue))) {
          if (this.workerIds.has(queue)) this.wake(queue);
        }
      }
    } finally {
      this.flushingAlongside = false;
    }
  }

  private async writeAlongside(members: AlongsideEnqueue[]): Promise<void> {
    if (!this.boss) throw new Error('The job engine is not started');
    const jobs = members.map((member) => ({ id: member.id, name: member.queue, data: member.data, ...(member.startAfter ? { startAfter: member.startAfter } : {}) }));
    // The jobs join their queues' rows (created at start for every registered queue, checked by enqueue).
    await this.boss.insert(jobs, { db: withWrites(knexAdapter(this.options.db.knex), members.map((member) => member.write)) });
  }

  async stats(options: { failures?: number } = {}): Promise<JobStats> {
    if (!this.boss || this.state === 'new' || this.state === 'stopped') throw new Error('The job engine is not started');
    const limit = Math.max(0, Math.min(options.failures ?? 20, 500));
    const db = this.boss.getDb();
    const counted = await db.executeSql(
      `select q.name, j.state::text as state, count(j.id)::int as count
         from ${JOB_SCHEMA}.queue q left join ${JOB_SCHEMA}.job j on j.name = q.name
        where q.name not like '\\_\\_pgboss\\_\\_%'
        group by q.name, j.state order by q.name`,
      [],
    );
    const queues = new Map<string, QueueStats>();
    for (const row of counted.rows as Array<{ name: string; state: JobState | null; count: number }>) {
      let entry = queues.get(row.name);
      if (!entry) queues.set(row.name, (entry = { name: row.name, counts: Object.fromEntries(STATES.map((s) => [s, 0])) as Record<JobState, number> }));
      if (row.state) entry.counts[row.state] = Number(row.count);
    }
    let failures: JobFailure[] = [];
    if (limit) {
      const failed = await db.executeSql(
        `select id, name, completed_on, output, retry_count, started_on from (
           select id, name, completed_on, output, retry_count, started_on from ${JOB_SCHEMA}.job where state = 'failed'
           union all
           select id, name, completed_on, output, retry_count, started_on from ${JOB_SCHEMA}.archive where state = 'failed'
         ) f order by completed_on desc nulls last limit $1`,
        [limit],
      );
      failures = (failed.rows as Array<{ id: string; name: string; completed_on: unknown; output: unknown; retry_count: number; started_on: unknown }>).map(
        (row) => ({
          id: row.id,
          queue: row.name,
          failedAt: iso(row.completed_on),
          error: errorMessage(row.output),
          attempts: row.started_on ? Number(row.retry_count) + 1 : 0,
        }),
      );
    }
    return { queues: [...queues.values()], failures };
  }

  async health(options: { timeoutMs?: number } = {}): Promise<JobHealth> {
    const base = { started: this.started, workers: this.workers };
    if (!this.started || !this.boss) return { ...base, ok: false, error: 'not started' };
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.boss.getDb().executeSql(`select version from ${JOB_SCHEMA}.version`, []),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('no answer in time')), options.timeoutMs ?? 2000);
        }),
      ]);
      return { ...base, ok: true };
    } catch (err) {
      return { ...base, ok: false, error: (err as Error).message };
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    if (this.state === 'starting') await this.starting?.catch(() => undefined);
    if (this.state !== 'started') return;
    this.state = 'stopping';
    // Workers still starting finish starting first, so that the stop below stops every one of them.
    await this.workersStarting;
    const deadline = Date.now() + this.shutdownTimeoutMs;
    const boss = this.boss!;
    clearInterval(this.reclaimTimer);
    await this.reclaiming;
    // pg-boss stops polling, waits (checking every 0.5 s) while its workers hold jobs, then fails those still
    // active after the timeout, so they are retried.
    await boss.stop({ graceful: true, wait: true, close: false, timeout: this.shutdownTimeoutMs }).catch((err) => this.log.error({ err }, 'job engine stop'));
    // A poll that was under way at the stop can still hand a worker a job: wait for such handlers and for the
    // statements pg-boss did not await (completions), within what is left of the timeout.
    while (this.running.size && Date.now() < deadline) {
      await Promise.race([Promise.allSettled([...this.running]), new Promise((resolve) => setTimeout(resolve, deadline - Date.now()).unref())]);
    }
    if (this.running.size) this.log.warn({ running: this.running.size }, 'jobs still running after the shutdown timeout; they will run again');
    await this.tracker.drain(Math.max(1000, deadline - Date.now()));
    this.tracker.closed = true;
    await this.pool?.end().catch((err) => this.log.error({ err }, 'job engine pool end'));
    this.state = 'stopped';
    if (this.runWorkers) this.log.info('job workers stopped');
  }
}

export function createJobEngine(options: JobEngineOptions): JobEngine {
  return new PgBossJobEngine(options);
}

/** Runs `statement` again (up to 5 times, after a short growing pause) when PostgreSQL picked it as a deadlock's victim. */
export async function retryOnDeadlock<T>(statement: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement();
    } catch (err) {
      if ((err as { code?: unknown }).code !== '40P01' || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 25 * attempt + Math.floor(Math.random() * 25)));
    }
  }
}
