/**
 * One benchmark target, run by test/bench/run.ts in its own child process so the load generator never shares
 * this event loop. Every target serves `GET /api/system/health/live` with the same body
 * (`{ status: 'live', uptimeSeconds, version }`):
 *
 * - `app`: the real app, built as server/main.ts builds it (loadConfig from the environment, the pino logger on
 *   stdout, the configured database, migrations), plus one API key created in the database, and with
 *   BENCH_CATALOG=1 the demo-like venue of the catalog row (test/bench/catalogSeed.ts);
 * - `baseline`: a minimal Koa + @koa/router app that logs nothing;
 * - `koa-pino`: Koa + @koa/router + a stock pino-http request logger (one JSON line per request on stdout);
 * - `express-eov`: Express 5 + pino-http + express-openapi-validator over our openapi.yaml (request validation
 *   on; response validation as our app has it, i.e. off under NODE_ENV=production).
 *
 * - `catalog-sql`: the public upcoming-events read (P6) as its two SQL statements run straight through the driver
 *   (`pg`, or PGlite's own `query` on the embedded database) by a bare node:http server, the rows sent as JSON:
 *   what the app's chain (routing, validation, presentation, pricing, ETag) is measured against.
 * - `hold-sql`: the guest's hold (R2) as its transaction of plain SQL statements (test/bench/holdSeed.ts
 *   `directHold`) through the driver, behind a bare node:http server answering `POST /api/public/reservations`.
 *   The app child seeds the booking rows with BENCH_HOLDS=1.
 *
 *   With BENCH_EXPORTS=1 it seeds the exports row's reservations (test/bench/exportsSeed.ts).
 * - `visit-sql`: the visit counter's increment (P7) as the app runs it — the day and ISO-week upserts in one
 *   statement (`VISIT_UPSERT`) — straight through `pg` by a bare node:http server answering 202 with the buckets.
 *
 * The peers are what one would write with those libraries' defaults, as their READMEs show them. All listen on
 * 127.0.0.1 on an ephemeral port and report it over IPC; stdout (the logs) is /dev/null, as the parent spawns us,
 * so our app and the pino-http peers write their JSON lines to the same sink.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import type { NextFunction, Request, Response } from 'express';
import Koa from 'koa';
import { CATALOG_PATH } from './catalogSeed.ts';
import type { HoldBench } from './holdSeed.ts';

export type TargetKind = 'app' | 'baseline' | 'koa-pino' | 'express-eov' | 'catalog-sql' | 'hold-sql' | 'visit-sql' | 'chat-platform';

const LIVE_PATH = '/api/system/health/live';

/** Child → parent. */
export type ChildMessage =
  | { type: 'ready'; port: number; apiKey?: string; database?: string; catalogEvents?: number; holds?: HoldBench; exportsSeed?: { customers: number; reservations: number; payments: number } }
  | { type: 'cpu'; id: number; user: number; system: number; apiKeyRequests?: number; stats?: Record<string, number> }
  | { type: 'error'; message: string };

/** Parent → child. */
export type ParentMessage = { type: 'cpu'; id: number } | { type: 'stop' };

const kind = process.argv[2] as TargetKind;
const send = (message: ChildMessage) => process.send?.(message);

async function listen(callback: http.RequestListener): Promise<http.Server> {
  const server = http.createServer(callback);
  server.keepAliveTimeout = 65_000; // as server/main.ts
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

interface Peer {
  server: http.Server;
  extra: Partial<ChildMessage>;
  cleanup: () => Promise<void>;
}

const startedAt = Date.now();
const version = process.env.npm_package_version ?? '0.1.0';
/** The liveness body, as the app's getLiveness handler builds it. */
const liveBody = () => ({ status: 'live', uptimeSeconds: (Date.now() - startedAt) / 1000, version });

/** Koa + @koa/router serving the liveness body, behind `middleware` when given (a request logger). */
async function koaPeer(middleware?: Koa.Middleware): Promise<Peer> {
  const koa = new Koa();
  const router = new Router();
  router.get(LIVE_PATH, (ctx) => {
    ctx.body = liveBody();
  });
  if (middleware) koa.use(middleware);
  koa.use(router.routes());
  return { server: await listen(koa.callback()), extra: {}, cleanup: async () => {} };
}

/** A stock pino-http logger: pino's defaults (JSON lines on stdout, synchronous), LOG_LEVEL as our app reads it. */
async function stockHttpLogger() {
  const { pinoHttp } = await import('pino-http');
  return pinoHttp({ level: process.env.LOG_LEVEL ?? 'info' });
}

async function koaPino(): Promise<Peer> {
  const logger = await stockHttpLogger();
  // pino-http's documented use outside Express: hand it Node's req/res; it logs on the response's `finish`.
  return koaPeer((ctx, next) => {
    logger(ctx.req, ctx.res);
    return next();
  });
}

/**
 * Express 5 + pino-http + express-openapi-validator, given the path of our openapi.yaml (an OpenAPI 3.1 document
 * with `x-` extensions; the validator loads it as it is). Request validation on with the validator's defaults
 * (unknown query parameters refused, no coercion); response validation follows our app's VALIDATE_RESPONSES
 * setting, which is off under NODE_ENV=production (the bench's setting). No security handlers: the measured
 * operation is public (`security: []`), so the validator has no credential to check on it.
 */
async function expressEov(): Promise<Peer> {
  const { default: express } = await import('express');
  const OpenApiValidator = await import('express-openapi-validator');
  const { CONTRACT_PATH } = await import('../../server/platform/http/contract.ts');
  const { loadConfig } = await import('../../server/platform/config.ts');
  const app = express();
  app.use(await stockHttpLogger());
  app.use(
    OpenApiValidator.middleware({
      apiSpec: CONTRACT_PATH,
      validateRequests: true,
      validateResponses: loadConfig().validateResponses,
    }),
  );
  app.get(LIVE_PATH, (_req, res) => {
    res.json(liveBody());
  });
  // The validator's errors (400, 404, 405 …) as JSON, as its README shows.
  app.use((err: { status?: number; message?: string; errors?: unknown }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(err.status ?? 500).json({ message: err.message, errors: err.errors });
  });
  return { server: await listen(app), extra: {}, cleanup: async () => {} };
}

/**
 * The upcoming-events read without the app: the same two statements the catalog service builds
 * (`upcomingEventsQuery`, `salesQuery`, rendered once to SQL text; only the time parameters change per request),
 * run through the driver, the rows sent as they come. On the embedded database it seeds its own copy of the
 * venue (PGlite is one process's); on PostgreSQL it reads the app's (started first, seeded by the app child).
 */
async function catalogSql(): Promise<Peer> {
  const { default: knexFactory } = await import('knex');
  const { loadConfig } = await import('../../server/platform/config.ts');
  const { openConfiguredDatabase } = await import('../../server/platform/db/database.ts');
  const { migrateLatest } = await import('../../server/platform/db/migrations.ts');
  const { dateWindow, salesQuery, upcomingEventsQuery } = await import('../../server/modules/catalog/queries.ts');
  const { seedBenchVenue } = await import('./catalogSeed.ts');
  const config = loadConfig();
  const db = openConfiguredDatabase(config);
  let run: (sql: string, params: unknown[]) => Promise<unknown[]>;
  let close: () => Promise<void>;
  if (db.kind === 'embedded') {
    await migrateLatest(db.knex);
    await seedBenchVenue(db.knex);
    const pglite = (await db.knex.client.acquireConnection()) as { query(sql: string, params: unknown[]): Promise<{ rows: unknown[] }> };
    run = async (sql, params) => (await pglite.query(sql, params)).rows;
    close = () => db.close();
  } else {
    await db.close();
    const { default: pg } = await import('pg');
    // As many connections as the app's knex pool.
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    run = async (sql, params) => (await pool.query(sql, params)).rows;
    close = () => pool.end();
  }
  // SQL text only (no connection): rendered once with placeholder times, which each request replaces.
  const sqlOnly = knexFactory({ client: 'pg' });
  const [START, END, NOW] = [new Date(0), new Date(1), new Date(2)];
  const limit = Number(new URLSearchParams(CATALOG_PATH.split('?')[1]).get('limit'));
  const events = upcomingEventsQuery(sqlOnly, { zone: config.venueTimezone, start: START, end: END, now: NOW, limit, offset: 0 }).toSQL().toNative();
  const sales = salesQuery(sqlOnly, NOW).toSQL().toNative();
  const server = await listen((req, res) => {
    if (req.url !== CATALOG_PATH) {
      res.writeHead(404).end();
      return;
    }
    const now = new Date();
    const window = dateWindow({}, config.venueTimezone, now);
    const times = new Map([[START, window.start], [END, window.end], [NOW, now]]);
    const bind = (bindings: readonly unknown[]) => bindings.map((value) => (value instanceof Date ? times.get(value) ?? value : value));
    Promise.all([run(events.sql, bind(events.bindings)), run(sales.sql, bind(sales.bindings))]).then(
      ([rows, setup]) => {
        const body = JSON.stringify({ events: rows, sales: setup[0] });
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
      },
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message),
    );
  });
  return { server, extra: { database: db.kind }, cleanup: close };
}

/**
 * The visit increment without the app (P7): the same statement (two `insert … on conflict do update`, one
 * transaction), through a `pg` pool as large as the app's knex pool, on PostgreSQL (DATABASE_URL) only.
 */
async function visitSql(): Promise<Peer> {
  const { loadConfig } = await import('../../server/platform/config.ts');
  const { VISIT_UPSERT, visitBuckets } = await import('../../server/modules/system/visits.ts');
  const config = loadConfig();
  if (!config.databaseUrl) throw new Error('visit-sql needs DATABASE_URL (PostgreSQL)');
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
  const server = await listen((req, res) => {
    req.resume();
    req.on('end', async () => {
      const buckets = visitBuckets(new Date(), config.venueTimezone);
      try {
        await pool.query(VISIT_UPSERT, [buckets.day, buckets.week]);
        const body = JSON.stringify(buckets);
        res.writeHead(202, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
      } catch (err) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end((err as Error).message);
      }
    });
  });
  return { server, extra: { database: 'postgres' }, cleanup: () => pool.end() };
}

/** Reads a JSON body (small: a hold request). */
function readJson(req: http.IncomingMessage): Promise<any> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (err) {
        reject(err);
      }
    });
    req.on('error', reject);
  });
}

/**
 * The hold without the app (R2): the transaction of test/bench/holdSeed.ts through `pg` (a pool as large as the
 * app's) or, on the embedded database, PGlite's own transaction (it seeds its own copy of the booking rows).
 */
async function holdSql(): Promise<Peer> {
  const { loadConfig } = await import('../../server/platform/config.ts');
  const { openConfiguredDatabase } = await import('../../server/platform/db/database.ts');
  const { migrateLatest } = await import('../../server/platform/db/migrations.ts');
  const { directHold, HoldRefused, HOLD_PATH, seedHoldBench } = await import('./holdSeed.ts');
  type Query = import('./holdSeed.ts').Query;
  const config = loadConfig();
  const db = openConfiguredDatabase(config);
  let transaction: <T>(work: (query: Query) => Promise<T>) => Promise<T>;
  let close: () => Promise<void>;
  const extra: Partial<ChildMessage> = { database: db.kind };
  if (db.kind === 'embedded') {
    await migrateLatest(db.knex);
    (extra as { holds?: HoldBench }).holds = await seedHoldBench(db.knex);
    type Tx = { query(sql: string, params: unknown[]): Promise<{ rows: Array<Record<string, any>> }> };
    const pglite = (await db.knex.client.acquireConnection()) as { transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> };
    transaction = (work) => pglite.transaction((tx) => work(async (sql, params) => (await tx.query(sql, params)).rows));
    close = () => db.close();
  } else {
    await db.close();
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    transaction = async (work) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work(async (sql, params) => (await client.query(sql, params)).rows);
        await client.query('commit');
        return result;
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    };
    close = () => pool.end();
  }
  const server = await listen((req, res) => {
    if (req.method !== 'POST' || req.url !== HOLD_PATH) {
      res.writeHead(404).end();
      return;
    }
    readJson(req)
      .then((body) => transaction((query) => directHold(query, body)))
      .then(
        (hold) => {
          const text = JSON.stringify(hold);
          res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) }).end(text);
        },
        (err: Error) => {
          const status = err instanceof HoldRefused ? err.status : 500;
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ code: err instanceof HoldRefused ? err.code : err.message }));
        },
      );
  });
  return { server, extra, cleanup: close };
}

async function app() {
  const { createApp } = await import('../../server/app.ts');
  const { loadConfig } = await import('../../server/platform/config.ts');
  const { openConfiguredDatabase } = await import('../../server/platform/db/database.ts');
  const { migrateLatestExclusive } = await import('../../server/platform/db/migrations.ts');
  const { createLogger } = await import('../../server/platform/logger.ts');
  const { buildApiKey } = await import('../helpers/factories.ts');
  const { removeBenchVenue, seedBenchVenue } = await import('./catalogSeed.ts');
  const { removeHoldBench, seedHoldBench } = await import('./holdSeed.ts');

  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = openConfiguredDatabase(config);
  // One at a time, as `npm start` migrates: the app children of a run start together, and on a fresh PostgreSQL
  // database two migrating at once failed (knex_migrations created twice).
  await migrateLatestExclusive(db);
  // Only the app child that P6 drives seeds the venue (two app children may share one PostgreSQL database).
  const catalog = process.env.BENCH_CATALOG === '1';
  const catalogEvents = catalog ? await seedBenchVenue(db.knex) : undefined;
  // Only the app child that the booking rows (R1, R2) drive seeds their show.
  const holdRows = process.env.BENCH_HOLDS === '1';
  const holds = holdRows ? await seedHoldBench(db.knex) : undefined;
  // Only the app child of the exports row (E1) seeds its reservations.
  const exportRows = process.env.BENCH_EXPORTS === '1';
  const exportsSeed = exportRows ? await (await import('./exportsSeed.ts')).seedExports(db.knex) : undefined;
  // A valid key (enabled, no expiry, owner holds SUPERUSER), written directly as the test factories do.
  const { key, apiKey, owner } = await buildApiKey({ name: 'bench key', permissions: { system: ['read'] } });
  // As server/main.ts: tracing only when OTEL_EXPORTER_OTLP_ENDPOINT is set (metrics follow METRICS_TOKEN: BENCH_METRICS=1).
  const { loadTracing } = await import('../../server/platform/observability/index.ts');
  const built = createApp({ config, db, logger, tracing: await loadTracing(config, logger) });
  const { koa, context } = built;
  // A hold enqueues its expiry job in its transaction: the hold rows need the job engine started (as server/main.ts
  // does; no workers, so nothing else competes for the CPU).
  if (holdRows) await context.jobs.start({ workers: false, app: context });
  // As server/main.ts before it listens (issue 37 §1): the pool opened, the hot operations compiled and walked once,
  // writing nothing (the chain on PostgreSQL only, as main.ts). BENCH_PRIME=0 leaves the process cold (to measure
  // what priming saves).
  if (process.env.BENCH_PRIME !== '0') await built.prime({ chain: db.kind === 'postgres' });
  const server = await listen(koa.callback());
  return {
    server,
    extra: { apiKey: key, database: db.kind, catalogEvents, holds, exportsSeed },
    apiKeyRequests: async () => {
      const row = await db.knex('api_keys').where('id', apiKey.id).first('request_count');
      return Number(row?.request_count ?? 0);
    },
    cleanup: async () => {
      // On a real PostgreSQL database (DATABASE_URL), leave nothing behind.
      if (db.kind === 'postgres') {
        await db.knex('api_keys').where('id', apiKey.id).delete().catch(() => {});
        await db.knex('accounts').where('id', owner.id).delete().catch(() => {});
        if (catalog) await removeBenchVenue(db.knex).catch(() => {});
        if (holdRows) await removeHoldBench(db.knex).catch(() => {});
        if (exportRows) await (await import('./exportsSeed.ts')).removeExportsSeed(db.knex).catch(() => {});
      }
      if (holdRows) await context.jobs.stop().catch(() => {});
      logger.flush();
      await db.close();
    },
  };
}

/**
 * Runs the young generation through a few collections before the first request, so every target has touched its
 * heap's pages by the time it reports ready, as our app has (its migrations and seeding allocate plenty).
 * test/bench/run.ts fixes the young generation's size, so these are the pages that serve the requests. On the
 * development VM (its hypervisor takes back memory the guest frees, and gives it again on first touch) a target
 * that first touched them later, in its warm-up twenty seconds after start, ran 20–25 % slower for its whole
 * life: the minimal Koa server at 36–38 µs of CPU per request instead of 30, whenever it was not the first
 * warmed. Allocates about 150 MB of short-lived objects: a few hundred milliseconds once.
 */
function touchYoungGeneration(): void {
  // Kept in a small ring until overwritten, so the optimizing compiler cannot elide the allocations.
  const ring: Array<{ i: number; text: string }> = new Array(1024);
  for (let i = 0; i < 3_000_000; i++) ring[i & 1023] = { i, text: `x${i}` };
}

async function main(): Promise<void> {
  const peers: Record<Exclude<TargetKind, 'app' | 'chat-platform'>, () => Promise<Peer>> = {
    baseline: () => koaPeer(),
    'koa-pino': koaPino,
    'express-eov': expressEov,
    'catalog-sql': catalogSql,
    'hold-sql': holdSql,
    'visit-sql': visitSql,
  };
  const target =
    kind === 'app'
      ? await app()
      : kind === 'chat-platform'
        ? await (await import('./chatPlatform.ts')).chatPlatformTarget()
        : Object.hasOwn(peers, kind)
          ? await peers[kind as keyof typeof peers]()
          : undefined;
  if (!target) throw new Error(`unknown target "${kind}" (app | ${Object.keys(peers).join(' | ')})`);
  const { server, extra, cleanup } = target;
  const apiKeyRequests = 'apiKeyRequests' in target ? target.apiKeyRequests : undefined;
  const stats = 'stats' in target ? target.stats : undefined;

  process.on('message', async (message: ParentMessage) => {
    if (message.type === 'cpu') {
      const usage = process.cpuUsage();
      const count = apiKeyRequests ? await apiKeyRequests() : undefined;
      send({ type: 'cpu', id: message.id, user: usage.user, system: usage.system, apiKeyRequests: count, stats: stats ? await stats() : undefined });
    } else if (message.type === 'stop') {
      server.closeAllConnections();
      server.close();
      await cleanup().catch(() => {});
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0)); // parent gone: never linger
  touchYoungGeneration();
  send({ type: 'ready', port: (server.address() as AddressInfo).port, ...extra } as ChildMessage);
}

main().catch((err) => {
  send({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});
