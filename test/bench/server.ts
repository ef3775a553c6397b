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

export type TargetKind = 'app' | 'baseline' | 'koa-pino' | 'express-eov' | 'catalog-sql' | 'chat-platform';

const LIVE_PATH = '/api/system/health/live';

/** Child → parent. */
export type ChildMessage =
  | { type: 'ready'; port: number; apiKey?: string; database?: string; catalogEvents?: number }
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
  const { CONTRACT_PATH } = await import('../../server/http/contract.ts');
  const { loadConfig } = await import('../../server/config.ts');
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
  const { loadConfig } = await import('../../server/config.ts');
  const { openConfiguredDatabase } = await import('../../server/db/database.ts');
  const { migrateLatest } = await import('../../server/db/migrations.ts');
  const { dateWindow, salesQuery, upcomingEventsQuery } = await import('../../server/modules/catalog/service.ts');
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

async function app() {
  const { createApp } = await import('../../server/app.ts');
  const { loadConfig } = await import('../../server/config.ts');
  const { openConfiguredDatabase } = await import('../../server/db/database.ts');
  const { migrateLatest } = await import('../../server/db/migrations.ts');
  const { createLogger } = await import('../../server/logger.ts');
  const { buildApiKey } = await import('../helpers/factories.ts');
  const { removeBenchVenue, seedBenchVenue } = await import('./catalogSeed.ts');

  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = openConfiguredDatabase(config);
  await migrateLatest(db.knex);
  // Only the app child that P6 drives seeds the venue (two app children may share one PostgreSQL database).
  const catalog = process.env.BENCH_CATALOG === '1';
  const catalogEvents = catalog ? await seedBenchVenue(db.knex) : undefined;
  // A valid key (enabled, no expiry, owner holds SUPERUSER), written directly as the test factories do.
  const { key, apiKey, owner } = await buildApiKey({ name: 'bench key', permissions: { system: ['read'] } });
  const { koa } = createApp({ config, db, logger });
  const server = await listen(koa.callback());
  return {
    server,
    extra: { apiKey: key, database: db.kind, catalogEvents },
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
      }
      logger.flush();
      await db.close();
    },
  };
}

async function main(): Promise<void> {
  const peers: Record<Exclude<TargetKind, 'app' | 'chat-platform'>, () => Promise<Peer>> = {
    baseline: () => koaPeer(),
    'koa-pino': koaPino,
    'express-eov': expressEov,
    'catalog-sql': catalogSql,
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
  send({ type: 'ready', port: (server.address() as AddressInfo).port, ...extra } as ChildMessage);
}

main().catch((err) => {
  send({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});
