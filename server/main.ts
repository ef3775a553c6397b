import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createApp } from './app.ts';
import { noteOwnAddress, socketBaseUrl } from './assistant/index.ts';
import { ConfigError, loadConfig } from './platform/config.ts';
import { assertProductionReady } from './platform/guardRails.ts';
import { openConfiguredDatabase } from './platform/db/database.ts';
import { migrateLatestExclusive } from './platform/db/migrations.ts';
import { holdsDatabase, startFromTemplate } from './platform/db/template.ts';
import { clientErrorHandler } from './platform/http/clientError.ts';
import { healthOnly } from './platform/http/healthOnly.ts';
import { ContractError } from './platform/http/contract.ts';
import { createJobEngine } from './platform/jobs/index.ts';
import { QUEUES } from './modules/index.ts';
import { createLogger } from './platform/logger.ts';
import { StartupTimeline } from './platform/startup.ts';
import { loadTracing, startMetricsServer, type MetricsServer } from './platform/observability/index.ts';
import { prepareDevelopmentSecrets, printSignInHelp, recordSeededPassword } from './cli/devSecrets.ts';
import { formatSeedResult, seed, type SeedResult } from '../seed/index.ts';

/**
 * Process entry: config → database → migrate → jobs → app → listen → seed (embedded) ; graceful shutdown.
 *
 * PROCESS_ROLE (docs/scaling.md): `all` (default) serves HTTP and runs the job workers; `api` serves HTTP and only
 * enqueues; `worker` runs the job workers (and pg-boss's maintenance) and listens on PORT for the health probes only.
 * Any number of each share one PostgreSQL database; what must happen once is guarded in the database (migrations
 * under an advisory lock, pg-boss's maintenance under its own, seeding only on the embedded database).
 */
async function main(): Promise<void> {
  // Where a start's time goes, logged at debug level (LOG_LEVEL=debug): platform/startup.ts.
  const timeline = new StartupTimeline();
  let config = loadConfig();
  const logger = createLogger(config.logLevel);
  timeline.attach(logger);
  for (const notice of config.deprecations) logger.warn(notice);
  // NODE_ENV=production refuses the payment sandbox, wildcard credentialed CORS, development secrets, no superuser token.
  assertProductionReady(config);
  // Signals are handled from the start. Until the server listens there is nothing to finish: log, write out
  // the buffered log lines and exit with the signal's conventional code. Once it listens, shut down gracefully.
  let shutdown: (signal: NodeJS.Signals) => void = (signal) => {
    logger.warn({ signal }, 'stopped while starting');
    logger.flush();
    process.exit(128 + os.constants.signals[signal]);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  const dev = prepareDevelopmentSecrets(config);
  config = dev.config;
  timeline.mark('config');
  if (!config.databaseUrl) {
    // A first start on the embedded database copies the build's migrated template instead of running initdb and
    // every migration (server/platform/db/template.ts); later starts find their database and skip this.
    const pgdata = path.join(config.dataDir, 'pgdata');
    if (!holdsDatabase(pgdata)) {
      const notFrom = await startFromTemplate(pgdata);
      logger.debug({ pgdata, ...(notFrom ? { notFromTemplate: notFrom } : {}) }, notFrom ? 'new embedded database: initdb and migrations' : 'new embedded database from the build\'s template');
      timeline.mark(notFrom ? 'new data directory' : 'data directory from the template');
    }
  }
  const db = openConfiguredDatabase(config);
  await db.knex.raw('select 1');
  if (db.openedEarly) logger.debug('the embedded database opened while the code loaded (server/start.js)');
  timeline.mark('database open');
  // Several processes may start at once on one PostgreSQL database: one migrates, the others wait for it.
  const migrated = await migrateLatestExclusive(db);
  if (migrated.applied.length) logger.info({ applied: migrated.applied }, 'migrations applied');
  timeline.mark(migrated.applied.length ? 'migrations applied' : 'migrations checked');

  const jobs = createJobEngine({ config, db, logger, queues: QUEUES });
  // Loads the OpenTelemetry SDK only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const tracing = await loadTracing(config, logger);
  const app = createApp({ config, db, logger, jobs, tracing });
  timeline.mark('app (contract, routes)');
  // Before listening: a request may enqueue at once. Workers run unless PROCESS_ROLE=api, started once the server
  // listens (their first polls would otherwise hold up the start: 0.3–0.4 s of the embedded database's one connection).
  let listening!: () => void;
  const listened = new Promise<void>((resolve) => (listening = resolve));
  await jobs.start({ app: app.context, workersAfter: listened });
  timeline.mark('job engine');
  const { koa } = app;
  const role = config.processRole;
  // Cold is warm (issue 37 §1): the pool's connections, the hot operations' validators and the first run of their
  // paths paid before listening, writing nothing, so the first request after `listening` costs what later ones do.
  // Nothing answers before this ends (readiness included: the server is not listening yet). On PostgreSQL, where
  // API processes are deployed behind a balancer and a release meets a rush; not on the embedded database (one
  // process, its statements on this thread): there it added 0.6–1.3 s to every start on the 2-core machine
  // (S1 2.2 → 3.1 in one sitting), which the start-up budget does not allow.
  if (db.kind === 'postgres') {
    const primed = await app.prime({ chain: role !== 'worker' });
    logger.debug({ primed }, 'primed');
    timeline.mark('primed');
  }
  // A worker answers the health probes only (an orchestrator's liveness and readiness), every other path 404.
  const server = http.createServer(role === 'worker' ? healthOnly(koa.callback()) : koa.callback());
  // Requests Node's HTTP parser refuses are answered as problem+json too, not with an empty 400.
  server.on('clientError', clientErrorHandler(logger));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const baseUrl = `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${port}`;
  logger.info({ baseUrl, database: db.kind, role, jobWorkers: jobs.workers }, 'listening');
  // METRICS_PORT: the metrics on a server of their own (server/platform/observability/server.ts).
  let metricsServer: MetricsServer | undefined;
  if (app.context.metrics && config.metrics.port !== undefined) {
    metricsServer = await startMetricsServer(app.context.metrics, { port: config.metrics.port, host: config.metrics.host, token: config.metrics.token, logger });
  }
  timeline.mark('listen');
  timeline.summary('start-up timeline: listening');
  listening();
  // The assistant's tools call this server back (unless ASSISTANT_API_BASE_URL points elsewhere).
  if (role !== 'worker') noteOwnAddress(app.context, socketBaseUrl(config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host, port) ?? baseUrl);

  let closing = false;
  shutdown = (signal) => {
    // Only the first signal counts: npm forwards the terminal's Ctrl-C to node, which gets it from the terminal
    // too, so a second one a moment later is the same request, not an impatient one.
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      logger.error('in-flight requests did not finish in 10 s; closing anyway');
      server.closeAllConnections();
    }, 10_000);
    force.unref();
    // A keep-alive connection whose request was in flight at the signal stays open once answered; close such
    // connections as they fall idle instead of waiting for the client (or the 10 s above).
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    sweep.unref();
    server.close(async () => {
      clearInterval(sweep);
      // Running jobs finish (JOB_SHUTDOWN_TIMEOUT_MS at most) while the database is still open.
      await jobs.stop();
      await metricsServer?.close();
      await app.close();
      await db.close();
      logger.info('stopped');
      logger.flush();
      process.exit(0);
    });
    server.closeIdleConnections();
  };

  let seeded: SeedResult | undefined;
  if (config.seedOnStart && db.kind === 'embedded' && config.superuserApiTokens.length) {
    try {
      seeded = await seed({
        baseUrl,
        superuserToken: config.superuserApiTokens[0],
        passwords: dev.passwords,
        onCreated: (username) => recordSeededPassword(dev, username),
        // The demo venue only into a catalog without shows: a restart never undoes what operators changed.
        catalog: 'when-empty',
      });
      logger.info({ seeded: seeded.steps }, 'seeded');
      timeline.mark('seed');
      timeline.summary('start-up timeline: seeded');
    } catch (err) {
      // Stopped while seeding: the server no longer answers the seeder; the shutdown under way ends the process.
      if (closing) return;
      throw err;
    }
  }
  if (closing) return;
  printSignInHelp(baseUrl, config, dev, seeded?.accounts);
  if (seeded) {
    const see = `See it: curl '${baseUrl}/api/public/show-events?locale=vi'`;
    if (seeded.steps.some((step) => step.resource === 'shows' && step.skipped)) {
      console.log(`\nThe catalog already has shows: left as it is (\`npm run seed\` seeds the demo venue again). ${see}\n`);
    } else {
      console.log(`\nDemo venue:\n${formatSeedResult(seeded)}\n${see}\n`);
    }
  }
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof ContractError) {
    console.error(`Cannot start: ${err.message}`);
  } else {
    console.error(err);
  }
  process.exit(1);
});
