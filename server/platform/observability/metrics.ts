import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import type * as PromClient from 'prom-client';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';

/**
 * Prometheus metrics (issue 25 §5), one registry per app (never prom-client's global one: a test run builds many
 * apps). Off unless METRICS_TOKEN or METRICS_PORT is set; off, `createMetrics` answers undefined, nothing is counted
 * and prom-client is not even loaded (it is required here, on demand).
 *
 * The platform's own series:
 * - `venue_http_requests_total` / `venue_http_request_duration_seconds` by `operation` (the contract's operationId,
 *   never the raw path: bounded) and `status`; the labelled children are kept, so a request costs two map
 *   lookups, an increment and an observation (7 buckets);
 * - the job queues (pg-boss's tables, read at each scrape): depth and age of the oldest waiting job, active and
 *   failed jobs by queue, and `venue_job_runs_total` by queue and result from this process's workers;
 * - the database pool (knex's tarn pool on PostgreSQL: used, free, pending; PGlite: its single connection);
 * - Node's process metrics (prom-client's defaults).
 * The layers above register theirs on `registry` (the business counters: server/modules/system/metrics.ts) and
 * read what they need at scrape time through `onScrape`.
 */
export interface Metrics {
  readonly registry: PromClient.Registry;
  /** prom-client itself, to build more series on `registry`. */
  readonly client: typeof PromClient;
  /** One answered request. */
  observeRequest(operation: string, status: number, seconds: number): void;
  /** One job run by this process's workers. */
  observeJob(queue: string, result: 'completed' | 'failed', seconds: number): void;
  /** Runs before every scrape (reads from the database, say); a failing one is logged, the scrape goes on. */
  onScrape(collect: () => Promise<void>): void;
  /** The exposition text. */
  scrape(): Promise<string>;
  readonly contentType: string;
}

/** Few buckets, on purpose: each is a series per operation and status. */
const DURATION_BUCKETS = [0.005, 0.025, 0.1, 0.25, 1, 2.5, 10];
/** The job schema pg-boss uses (server/platform/jobs/engine.ts JOB_SCHEMA), read here without loading pg-boss. */
const JOB_SCHEMA = 'pgboss';

let promClient: typeof PromClient | undefined;
const loadPromClient = () => (promClient ??= createRequire(import.meta.url)('prom-client') as typeof PromClient);

/**
 * The request counter and histogram, kept in plain numbers and handed to the registry as two metrics of its format
 * at scrape time. prom-client's own `inc`/`observe` hash and validate the label set on every call (several µs per
 * request on this machine, with the child handles too); here a request costs two map lookups and three additions.
 */
class RequestStats {
  /** operation → status → cell; bounded: the contract's operations × the statuses they answer. */
  private readonly cells = new Map<string, Map<number, { count: number; sum: number; buckets: Float64Array }>>();

  observe(operation: string, status: number, seconds: number): void {
    let byStatus = this.cells.get(operation);
    if (!byStatus) this.cells.set(operation, (byStatus = new Map()));
    let cell = byStatus.get(status);
    if (!cell) byStatus.set(status, (cell = { count: 0, sum: 0, buckets: new Float64Array(DURATION_BUCKETS.length + 1) }));
    cell.count += 1;
    cell.sum += seconds;
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]) i++;
    cell.buckets[i] += 1;
  }

  private *each() {
    for (const [operation, byStatus] of this.cells) for (const [status, cell] of byStatus) yield { labels: { operation, status: String(status) }, cell };
  }

  /** A metric as prom-client's registry reads one (`get()` → name, help, type, values). */
  counter(name: string, help: string) {
    const get = () => ({ name, help, type: 'counter', aggregator: 'sum', values: [...this.each()].map(({ labels, cell }) => ({ labels, value: cell.count })) });
    return { name, help, type: 'counter', aggregator: 'sum', get };
  }

  histogram(name: string, help: string) {
    const get = () => {
      const values: Array<{ metricName: string; labels: Record<string, string | number>; value: number }> = [];
      for (const { labels, cell } of this.each()) {
        let cumulative = 0;
        for (let i = 0; i <= DURATION_BUCKETS.length; i++) {
          cumulative += cell.buckets[i];
          values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: i < DURATION_BUCKETS.length ? DURATION_BUCKETS[i] : '+Inf' }, value: cumulative });
        }
        values.push({ metricName: `${name}_sum`, labels, value: cell.sum });
        values.push({ metricName: `${name}_count`, labels, value: cell.count });
      }
      return { name, help, type: 'histogram', aggregator: 'sum', values };
    };
    return { name, help, type: 'histogram', aggregator: 'sum', get };
  }
}

export function createMetrics(options: { enabled: boolean; db: Database; logger: Logger }): Metrics | undefined {
  if (!options.enabled) return undefined;
  const client = loadPromClient();
  const registry = new client.Registry();
  const log = options.logger.child({ component: 'metrics' });
  client.collectDefaultMetrics({ register: registry });

  const requests = new RequestStats();
  registry.registerMetric(requests.counter('venue_http_requests_total', 'HTTP requests answered, by operationId and status.') as never);
  registry.registerMetric(
    requests.histogram('venue_http_request_duration_seconds', 'Time to answer an HTTP request (until the handler has set the response), by operationId and status.') as never,
  );

  const jobRuns = new client.Counter({ name: 'venue_job_runs_total', help: "Jobs run by this process's workers, by queue and result.", labelNames: ['queue', 'result'] as const, registers: [registry] });
  const jobDurations = new client.Histogram({ name: 'venue_job_duration_seconds', help: "Time a job's handler took, by queue.", labelNames: ['queue'] as const, buckets: DURATION_BUCKETS, registers: [registry] });

  const collectors: Array<() => Promise<void>> = [];
  const onScrape = (collect: () => Promise<void>) => void collectors.push(collect);

  // Job queues, from pg-boss's live table at each scrape (every process sees every queue on a shared database).
  const depth = new client.Gauge({ name: 'venue_job_queue_depth', help: 'Jobs waiting to run now (created or retry, due), by queue.', labelNames: ['queue'] as const, registers: [registry] });
  const oldest = new client.Gauge({ name: 'venue_job_queue_oldest_age_seconds', help: 'Age of the oldest job waiting to run now, by queue (0: none waiting).', labelNames: ['queue'] as const, registers: [registry] });
  const active = new client.Gauge({ name: 'venue_job_active', help: 'Jobs being run, by queue.', labelNames: ['queue'] as const, registers: [registry] });
  const failed = new client.Gauge({ name: 'venue_job_failed', help: 'Failed jobs still in the live table (failed jobs are archived after 12 h), by queue.', labelNames: ['queue'] as const, registers: [registry] });
  onScrape(async () => {
    const rows = await jobQueueFigures(options.db.knex);
    for (const gauge of [depth, oldest, active, failed]) gauge.reset();
    for (const row of rows) {
      depth.set({ queue: row.queue }, row.waiting);
      oldest.set({ queue: row.queue }, row.oldestSeconds);
      active.set({ queue: row.queue }, row.active);
      failed.set({ queue: row.queue }, row.failed);
    }
  });

  // The database pool.
  const pool = new client.Gauge({ name: 'venue_db_pool_connections', help: "The app's database connections by state: used, free, pending (requests waiting for one).", labelNames: ['state'] as const, registers: [registry] });
  const poolMax = new client.Gauge({ name: 'venue_db_pool_max', help: "The most connections the app's pool opens (embedded database: 1).", registers: [registry] });
  onScrape(async () => {
    const figures = poolFigures(options.db);
    pool.set({ state: 'used' }, figures.used);
    pool.set({ state: 'free' }, figures.free);
    pool.set({ state: 'pending' }, figures.pending);
    poolMax.set(figures.max);
  });

  return {
    registry,
    client,
    contentType: registry.contentType,
    observeRequest(operation, status, seconds) {
      requests.observe(operation, status, seconds);
    },
    observeJob(queue, result, seconds) {
      jobRuns.inc({ queue, result });
      jobDurations.observe({ queue }, seconds);
    },
    onScrape,
    async scrape() {
      await Promise.all(
        collectors.map((collect) =>
          collect().catch((err: unknown) => {
            log.warn({ err }, 'a metrics collector failed; its series keep their last values');
          }),
        ),
      );
      return registry.metrics();
    },
  };
}

interface QueueFigures {
  queue: string;
  waiting: number;
  oldestSeconds: number;
  active: number;
  failed: number;
}

/** One grouped read of pg-boss's live job table (indexed by name and state). */
async function jobQueueFigures(knex: Knex): Promise<QueueFigures[]> {
  const result = await knex.raw(
    `select q.name as queue,
            count(j.id) filter (where j.state in ('created', 'retry') and j.start_after <= now())::int as waiting,
            coalesce(extract(epoch from now() - min(j.created_on) filter (where j.state in ('created', 'retry') and j.start_after <= now())), 0)::float8 as oldest,
            count(j.id) filter (where j.state = 'active')::int as active,
            count(j.id) filter (where j.state = 'failed')::int as failed
       from ${JOB_SCHEMA}.queue q left join ${JOB_SCHEMA}.job j on j.name = q.name
      where q.name not like '\\_\\_pgboss\\_\\_%'
      group by q.name`,
  );
  return (result.rows as Array<{ queue: string; waiting: number; oldest: number; active: number; failed: number }>).map((row) => ({
    queue: row.queue,
    waiting: Number(row.waiting),
    oldestSeconds: Math.max(0, Number(row.oldest)),
    active: Number(row.active),
    failed: Number(row.failed),
  }));
}

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}

/** knex's pool (tarn) as it stands; PGlite, through knex too, has one connection. */
export function poolFigures(db: Database): { used: number; free: number; pending: number; max: number } {
  const tarn = (db.knex.client as { pool?: TarnPool }).pool;
  if (!tarn) return { used: 0, free: 0, pending: 0, max: db.kind === 'embedded' ? 1 : 0 };
  return { used: tarn.numUsed(), free: tarn.numFree(), pending: tarn.numPendingAcquires(), max: db.kind === 'embedded' ? 1 : tarn.max };
}
