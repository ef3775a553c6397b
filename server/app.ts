import Koa from 'koa';
import { identityResolver } from './platform/auth/identity.ts';
import type { Config } from './platform/config.ts';
import { createAppContext, type AppContext, type ContextAdditions } from './platform/context.ts';
import { poolSize, type Database } from './platform/db/database.ts';
import { ContractError, loadContract, type Contract } from './platform/http/contract.ts';
import { corsHeadersFrom, corsPolicy } from './platform/http/cors.ts';
import { isTokenLevel, TOKEN_RULES } from './platform/http/access.ts';
import { SERVER_ONLY_PATHS } from './modules/chatNotifications/publicPolicy.ts';
import { ANY_ORIGIN_PATHS } from './modules/assistant/publicPolicy.ts';
import { errorBoundary } from './platform/http/errors.ts';
import type { HandlerMap } from './platform/http/handler.ts';
import { createJobEngine, type JobEngine } from './platform/jobs/index.ts';
import { checkHandlers, mountOperations } from './platform/http/operations.ts';
import { checkPolicyRegistry, type PolicyEntry } from './platform/http/policy.ts';
import { requestContext } from './platform/http/requestContext.ts';
import type { AppState } from './platform/http/state.ts';
import type { Analytics } from './platform/integrations/analytics.ts';
import type { Logger } from './platform/logger.ts';
import { createDomainEventBus } from './domain/events.ts';
import { payablesByKind, type Payable } from './domain/payables.ts';
import { BOOKING_EXTENSIONS, checkModules, handlers as allHandlers, moduleServices, PAYABLES, POLICY_REGISTRY, PRIMERS, QUEUES, SUBSCRIBERS } from './modules/index.ts';
import { compileRequestValidators } from './platform/http/validation.ts';
import { openConnections, walkChain, type PrimeReport, type PrimeRequest } from './platform/prime.ts';
import { apiKeyStore } from './modules/apiKeys/index.ts';
import type { StorageDriver } from './platform/storage/driver.ts';
import { observeRequests, type Tracing } from './platform/observability/index.ts';

export interface AppDeps {
  config: Config;
  db: Database;
  logger: Logger;
  contract?: Contract;
  handlers?: HandlerMap;
  registry?: PolicyEntry[];
  /**
   * The job engine (`context.jobs`). Whoever creates the app starts and stops it (main.ts: after migrations,
   * before listening; stopped after the HTTP server, before the database). Default: an engine over the
   * registered queues, not started.
   */
  jobs?: JobEngine;
  /** Replaces the client built from the config (tests). */
  analytics?: Analytics;
  /** Object storage; made from the config when absent (and then closed with the app). */
  storage?: StorageDriver;
  /**
   * Tracing, when OTEL_EXPORTER_OTLP_ENDPOINT is set: `await loadTracing(config, logger)` (it loads the OpenTelemetry
   * SDK, so it is asynchronous); shut down with the app.
   */
  tracing?: Tracing;
  /** What payments can settle; default: the modules' payables (their records' `payables`). Tests add their own. */
  payables?: readonly Payable[];
}

export interface App {
  koa: Koa<AppState>;
  context: AppContext;
  /**
   * Writes what is still buffered (API-key usage, analytics events) and closes the mail transport. Call after
   * the HTTP server has closed, before the database.
   */
  close(): Promise<void>;
  /**
   * Pays before readiness what a process pays once (issue 37 §1; server/platform/prime.ts): the pool's connections
   * opened, the hot operations' validators compiled, the modules' hot paths run once without writing (their
   * records' `prime`) and their requests walked through this app's chain on a loopback port of its own. Writes
   * nothing. server/main.ts calls it after the job engine starts and before it listens (a process that is not
   * listening is not ready); `chain: false` (a worker, which serves no API) only opens the connections.
   */
  prime(options?: { chain?: boolean }): Promise<PrimeReport>;
}

/**
 * The middleware chain of DESIGN.md, in order: request id + log, error boundary, CORS, identity,
 * route match (404/405), then per operation: policy, access, body, validation, handler.
 * Throws ContractError, naming every culprit, when the contract, handlers and policy registry disagree.
 */
export function createApp(deps: AppDeps): App {
  const contract = deps.contract ?? loadContract();
  const handlers = deps.handlers ?? allHandlers;
  const registry = deps.registry ?? POLICY_REGISTRY;
  const problems = [
    ...checkHandlers(contract.operations, handlers),
    ...(deps.handlers ? [] : checkModules(contract.operations)),
    ...checkPolicyRegistry(contract, registry),
  ];
  if (problems.length) throw new ContractError(problems);

  const jobs = deps.jobs ?? createJobEngine({ config: deps.config, db: deps.db, logger: deps.logger, queues: QUEUES });
  const context = createAppContext({
    config: deps.config,
    db: deps.db,
    logger: deps.logger,
    contract,
    jobs,
    analytics: deps.analytics,
    storage: deps.storage,
    tracing: deps.tracing,
    apiKeyStore: apiKeyStore(deps.db.knex),
    // The modules' declared parts of each other's flows (server/modules/index.ts), built once per app.
    additions: (platform) =>
      ({
        ...moduleServices(platform),
        events: createDomainEventBus(SUBSCRIBERS),
        bookingExtensions: BOOKING_EXTENSIONS,
        payables: payablesByKind(deps.payables ?? PAYABLES),
      }) as ContextAdditions,
  });
  const { analytics } = context;
  const koa = new Koa<AppState>({ proxy: deps.config.trustProxy });
  koa.silent = true; // the error boundary logs; Koa's default stderr printer would duplicate it

  koa.use(requestContext(deps.logger));
  // Observers sit outside the error boundary, so they see every request's final status.
  if (context.tracing) koa.use(context.tracing.middleware);
  if (context.metrics) koa.use(observeRequests(context.metrics));
  const detachDatabase = context.tracing?.instrumentDatabase(deps.db.knex);
  koa.use(
    errorBoundary({
      jsonBodyLimitBytes: deps.config.jsonBodyLimitBytes,
      // Server exceptions go to analytics (spec §6.5 item 4); a no-op unless analytics is enabled.
      onServerError: analytics.enabled ? (err, info) => analytics.captureException(err, info) : undefined,
    }),
  );
  koa.use(
    corsPolicy({
      allowedOrigin: deps.config.allowedOrigin,
      credentialOrigins: deps.config.dashboardOrigins,
      headers: corsHeadersFrom(contract, SERVER_ONLY_PATHS),
      serverOnlyPaths: SERVER_ONLY_PATHS,
      anyOriginPaths: ANY_ORIGIN_PATHS,
    }),
  );
  koa.use(
    identityResolver({
      knex: deps.db.knex,
      superuserApiTokens: deps.config.superuserApiTokens,
      credentials: context.credentials,
      throttle: context.credentialThrottle,
      bearerTokenPaths: bearerTokenPaths(contract),
    }).middleware,
  );
  for (const middleware of mountOperations({ app: context, handlers, registry })) koa.use(middleware);
  const close = async () => {
    await Promise.all([context.credentials.close(), analytics.shutdown(), context.notifications.close()]);
    context.mailer.close();
    if (!deps.storage) await context.storage.close?.();
    detachDatabase?.();
    await context.tracing?.shutdown();
  };
  const prime = async ({ chain = true } = {}): Promise<PrimeReport> => {
    const started = performance.now();
    const connections = await openConnections(deps.db, poolSize(deps.db));
    if (!chain) return { connections, operations: 0, requests: 0, burst: 0, statuses: {}, ms: performance.now() - started };
    const requests: PrimeRequest[] = [];
    const validators = compileRequestValidators(contract, deps.config.nodeEnv !== 'production');
    let operations = 0;
    for (const primer of PRIMERS) {
      const work = await primer.prime(context);
      for (const id of work.operations ?? []) if (validators.get(id)) operations++;
      requests.push(...(work.requests ?? []));
    }
    requests.unshift({ method: 'GET', path: '/api/system/health/live' });
    // The burst on PostgreSQL only, where a multi-process deployment meets a rush (the embedded database's one
    // connection serves a single process, and `npm start` does not prime there).
    const burst = deps.db.kind === 'postgres' ? PRIME_BURST : 0;
    const statuses = await walkChain(koa.callback(), requests, 2, burst);
    return { connections, operations, requests: requests.length, burst, statuses, ms: performance.now() - started };
  };
  return { koa, context, close, prime };
}

/**
 * Each priming request is also sent this many times at once, over as many connections: a rush's first round meets
 * 200 sockets accepted together, the pool's queue of waiting acquires and a heap grown to hold them all. Walked one
 * at a time only, R1's first round still cost the server twice the CPU of the later ones (274 against 105–230 ms);
 * with the burst, what they do (141–198 against 88–211 ms). About 0.4 s of a start on PostgreSQL.
 */
const PRIME_BURST = 200;

/** Paths whose own token may come as `Authorization: Bearer` (a token level with a Bearer scheme): their Bearer is judged by their access check. */
function bearerTokenPaths(contract: Contract): Set<string> {
  const bearerLevels = (access: string) => isTokenLevel(access) && TOKEN_RULES[access].schemes.some((scheme) => /Bearer$/.test(scheme));
  return new Set(contract.operations.filter((op) => bearerLevels(op.access)).map((op) => op.path.toLowerCase()));
}
