import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { Contract } from './http/contract.ts';
import type { JobEngine } from './jobs/types.ts';
import type { Logger } from './logger.ts';
import { ApiKeyCredentials, type ApiKeyStore } from './auth/apiKeyCredentials.ts';
import { SignInThrottle } from './auth/throttle.ts';
import { CredentialThrottle, type FailedCredential } from './auth/credentialThrottle.ts';
import { createAnalytics, type Analytics } from './integrations/analytics.ts';
import { createMailer, type Mailer } from './integrations/mail.ts';
import { createStorage, type StorageDriver } from './storage/index.ts';
import { rateLimitStoreFor } from './rateLimit.ts';
import { createNotifications, type Notifications } from './db/notifications.ts';
import { createMetrics, type Metrics } from './observability/metrics.ts';
import type { Tracing } from './observability/tracing.ts';

/**
 * The services every handler can reach through `call.app`. One per running app. The platform declares its own;
 * `server/domain/events.ts` and the modules add theirs to this interface (declaration merging), so the platform
 * never imports a layer above it.
 */
export interface AppContext {
  config: Config;
  db: Database;
  logger: Logger;
  contract: Contract;
  signInThrottle: SignInThrottle;
  /** Wrong API keys and tokens per client address (identity resolution and the token levels' access checks). */
  credentialThrottle: CredentialThrottle;
  /** API-key lookups (cached) and usage counting; administration commands call `changed()` in their transaction. */
  credentials: ApiKeyCredentials;
  /**
   * The invalidation channel (server/platform/db/notifications.ts): what one process keeps in memory, every process
   * forgets when it changes (PostgreSQL LISTEN/NOTIFY; in-process on the embedded database).
   */
  notifications: Notifications;
  /** Background jobs: `call.app.jobs.enqueue(queue, data, { trx })` inside a command's transaction. */
  jobs: JobEngine;
  startedAt: number;
  /** PostHog business events and server exceptions; does nothing unless ANALYTICS_ENABLED=true. */
  analytics: Analytics;
  /** Outbound e-mail: SMTP when SMTP_URL is set, else the development outbox (`.eml` files). Used by the email.send job. */
  mailer: Mailer;
  /** Object storage for blobs (local disk or S3-compatible, from STORAGE_DRIVER). */
  storage: StorageDriver;
  /** Prometheus metrics (this app's registry); undefined when metrics are off (METRICS_TOKEN and METRICS_PORT unset). */
  metrics: Metrics | undefined;
  /** OpenTelemetry tracing; undefined when off (OTEL_EXPORTER_OTLP_ENDPOINT unset). */
  tracing: Tracing | undefined;
}

declare module './jobs/types.ts' {
  /** A job handler's `job.app` is this app's context (the engine is handed it at start). */
  interface JobApp extends AppContext {}
}

/** The services the platform itself provides; the rest of `AppContext` is declared by the layers above. */
type PlatformKey = 'config' | 'db' | 'logger' | 'contract' | 'signInThrottle' | 'credentialThrottle' | 'credentials' | 'notifications' | 'jobs' | 'startedAt' | 'analytics' | 'mailer' | 'storage' | 'metrics' | 'tracing';

/** What the layers above add to the context (domain events, the booking's extensions, the modules' services), built by
 * the app at boot. */
export type ContextAdditions = Omit<AppContext, PlatformKey>;

/** The platform's own services: what a module's `services` builder (server/modules/record.ts) is given at boot. */
export type PlatformContext = Pick<AppContext, PlatformKey>;

export function createAppContext(deps: {
  config: Config;
  db: Database;
  logger: Logger;
  contract: Contract;
  jobs: JobEngine;
  analytics?: Analytics;
  mailer?: Mailer;
  storage?: StorageDriver;
  notifications?: Notifications;
  /** The app's tracing (server/platform/observability/tracing.ts `loadTracing`), when on. */
  tracing?: Tracing;
  /** Where API keys are read and their uses counted (the apiKeys module's rows: server/modules/apiKeys/store.ts). */
  apiKeyStore: ApiKeyStore;
  /** Built from the platform's services, once per app (the modules' services: rate limits, outside clients, …). */
  additions: (platform: PlatformContext) => ContextAdditions;
}): AppContext {
  const { additions, apiKeyStore, ...given } = deps;
  const { config, logger } = given;
  const notifications = deps.notifications ?? createNotifications(deps.db, logger, config.databaseUrl);
  const metrics = createMetrics({ enabled: config.metrics.enabled, db: deps.db, logger });
  const platform: PlatformContext = {
    ...given,
    analytics:
      deps.analytics ??
      createAnalytics(
        { enabled: config.analyticsEnabled, apiKey: config.posthogApiKey, host: config.posthogHost, timeoutMs: config.analyticsTimeoutMs },
        logger,
      ),
    mailer: deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, timeoutMs: config.smtpTimeoutMs }, logger),
    storage: deps.storage ?? createStorage(config),
    signInThrottle: new SignInThrottle(
      {
        maxFailures: deps.config.signInMaxFailures,
        maxFailuresPerAddress: deps.config.signInMaxFailuresPerAddress,
        windowSeconds: deps.config.signInWindowSeconds,
      },
      rateLimitStoreFor(deps.db),
    ),
    credentialThrottle: new CredentialThrottle(
      {
        maxFailures: config.credentialFailureLimit,
        windowSeconds: config.credentialFailureWindowSeconds,
        onFailure: countCredentialFailures(metrics),
      },
      rateLimitStoreFor(deps.db),
    ),
    notifications,
    credentials: new ApiKeyCredentials(apiKeyStore, deps.logger, deps.config.apiKeyCacheMs, deps.config.apiKeyUsageFlushMs, Date.now, notifications),
    startedAt: Date.now(),
    metrics,
    tracing: deps.tracing,
  };
  return { ...additions(platform), ...platform };
}

/** `venue_credential_failures_total{credential, result}`: wrong credentials presented, refused (401/403) or throttled (429). */
function countCredentialFailures(metrics: Metrics | undefined): ((credential: FailedCredential, throttled: boolean) => void) | undefined {
  if (!metrics) return undefined;
  const counter = new metrics.client.Counter({
    name: 'venue_credential_failures_total',
    help: 'Wrong credentials presented (API keys; superuser, service, webhook, verify and metrics tokens), by kind and result: refused, or throttled (the one past the per-address limit: 429).',
    labelNames: ['credential', 'result'] as const,
    registers: [metrics.registry],
  });
  return (credential, throttled) => counter.inc({ credential, result: throttled ? 'throttled' : 'refused' });
}
