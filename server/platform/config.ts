import net from 'node:net';
import path from 'node:path';
import type { AccessTokens } from './http/accessLevels.ts';

/** Every environment variable the server reads, typed, with its default. README mirrors this table. */
export type PolicyMode = 'report' | 'enforce' | 'off';
export type NodeEnv = 'development' | 'production' | 'test';
export type ProcessRole = 'all' | 'api' | 'worker';

export interface Config {
  nodeEnv: NodeEnv;
  port: number;
  host: string;
  /** Unset → embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  /**
   * PostgreSQL: connections the pool keeps open however idle (of its 10; default 0: an idle connection closes after
   * 30 s). The start opens all ten before listening (issue 37 §1); this many stay open for the rush after a deploy.
   */
  databasePoolMin: number;
  dataDir: string;
  logLevel: string;
  emailDomain: string;
  superuserApiTokens: string[];
  /** Secrets of the token access levels (SVC_LLM_SERVICE_TOKEN, CHAT_WEBHOOK_TOKEN, MESSAGING_VERIFY_TOKEN); unset → 503. */
  accessTokens: AccessTokens;
  publicApiPolicyMode: PolicyMode;
  allowedOrigin: string;
  /** DASHBOARD_ORIGINS: the only origins answered `Access-Control-Allow-Credentials: true` (none by default). */
  dashboardOrigins: string[];
  /** The session cookie's `SameSite` and whether it is always `Secure` (production, or `SameSite=None`). */
  sessionCookie: { sameSite: 'lax' | 'strict' | 'none'; alwaysSecure: boolean };
  trustProxy: boolean;
  sessionTtlSeconds: number;
  signInMaxFailures: number;
  signInWindowSeconds: number;
  /**
   * Wrong credentials (API keys, superuser, service, webhook, verify and metrics tokens) one client address may present
   * per CREDENTIAL_FAILURE_WINDOW_SECONDS; past it, 429 for whatever it presents until the window ends.
   */
  credentialFailureLimit: number;
  credentialFailureWindowSeconds: number;
  jsonBodyLimitBytes: number;
  allowDatabaseReset: boolean;
  /** How long an accepted API key is remembered by a process (0: looked up on every request). */
  apiKeyCacheMs: number;
  /** How often counted API-key uses are written to the database. */
  apiKeyUsageFlushMs: number;
  /** How many public catalog answers a process keeps in memory (0: none, every read goes to the database). */
  catalogCacheEntries: number;
  /** How long a kept catalog answer may be served at most (s): what bounds a change made behind the app's back. */
  catalogCacheMaxAgeSeconds: number;
  /** Validate every response against the contract (on outside production). */
  validateResponses: boolean;
  seedPasswords: { admin?: string; marketing?: string; staff?: string };
  /** `npm start` seeds the embedded database on boot unless false. */
  seedOnStart: boolean;
  /**
   * PROCESS_ROLE: what this process runs. `all` (default, `npm start`): HTTP and the job workers. `api`: HTTP only;
   * it enqueues, worker processes run the jobs. `worker`: the job workers, pg-boss's maintenance and the reclaim of
   * lost jobs, with a listener answering only the health probes. `api` and `worker` need PostgreSQL.
   */
  processRole: ProcessRole;
  /** Run background-job workers in this process: PROCESS_ROLE `all` or `worker` (the deprecated JOB_WORKERS=false means `api`). */
  jobWorkers: boolean;
  /** Settings read but deprecated, with what to use instead (logged at start). */
  deprecations: string[];
  /**
   * A job whose process has given no sign of life (a heartbeat every third of this) for this long is lost: it is put
   * back to run again at once, by any worker. Bounds how soon the work of a process that died is picked up again.
   */
  jobLostAfterSeconds: number;
  /** How often an idle worker polls its queue for jobs (a worker that just finished a job looks again at once). */
  jobPollIntervalSeconds: number;
  /** How often job maintenance runs: fails jobs past their queue's expireInSeconds (so retried), archives, deletes. */
  jobMaintenanceIntervalSeconds: number;
  /** On shutdown, how long running jobs may take to finish before they are failed (and retried on the next start). */
  jobShutdownTimeoutMs: number;
  /** Outbound e-mail over SMTP (`smtp://user:pass@host:587`, `smtps://…:465`); unset → development outbox of `.eml` files under `<dataDir>/outbox/`. */
  smtpUrl: string | undefined;
  /** The From header of every outbound e-mail. */
  emailFrom: string;
  /** SMTP connection, greeting and socket time-out. */
  smtpTimeoutMs: number;
  /** Server business events and server exceptions go to PostHog only when true (spec §6.1, §6.5). */
  analyticsEnabled: boolean;
  /** PostHog project API key; required when analytics is enabled. */
  posthogApiKey: string | undefined;
  /** PostHog ingestion host (events are posted to `<host>/batch/`). */
  posthogHost: string;
  /** Time-out of one request to PostHog. */
  analyticsTimeoutMs: number;
  /**
   * Largest non-JSON request body (multipart/form-data, raw bytes) an operation takes when its contract says
   * nothing (`x-max-upload-bytes` on the operation or media type overrides it). Bodies are held in memory.
   */
  uploadBodyLimitBytes: number;
  /** Object storage for blobs: `local` (files under `<DATA_DIR>/blobs`) or `s3` (any S3-compatible service). */
  storageDriver: 'local' | 's3';
  /** S3 endpoint URL (MinIO, R2, s3rver …); unset → AWS's own for the region. */
  storageS3Endpoint: string | undefined;
  /** S3 bucket; required with STORAGE_DRIVER=s3. */
  storageS3Bucket: string | undefined;
  storageS3Region: string;
  /** S3 credentials; unset → the SDK's default chain (environment, profile, instance role). */
  storageS3AccessKeyId: string | undefined;
  storageS3SecretAccessKey: string | undefined;
  /** Path-style URLs (`endpoint/bucket/key`), which most self-hosted S3-compatible servers need. */
  storageS3ForcePathStyle: boolean;
  /**
   * Failed sign-ins one client address may have per SIGN_IN_WINDOW_SECONDS, across all identifiers (the
   * per identifier + address limit is signInMaxFailures). Past it: 429.
   */
  signInMaxFailuresPerAddress: number;
  /** Locales of the public site (SITE_LOCALES, comma-separated BCP 47 tags); the first is the default one, which fills in missing per-locale text. */
  siteLocales: string[];
  /** The first of siteLocales. */
  defaultLocale: string;
  /** IANA time zone of the venue (VENUE_TIMEZONE): date filters, local days and weekly schedules are read in it. */
  venueTimezone: string;
  /** VNPay terminal (merchant website) code; with VNPAY_HASH_SECRET unset → VNPay is off and guests get the other methods. */
  vnpayTmnCode: string | undefined;
  /** VNPay HMAC-SHA512 hash secret. */
  vnpayHashSecret: string | undefined;
  /** VNPay payment page (`…/paymentv2/vpcpay.html`) the guest is sent to. */
  vnpayPaymentUrl: string;
  /** VNPay merchant API (`…/merchant_webapi/api/transaction`): querydr and refund. */
  vnpayApiUrl: string;
  /** Time-out of one request to the VNPay API. */
  vnpayTimeoutMs: number;
  /**
   * The development payment sandbox (VNPAY_SANDBOX): checkout offers VNPay through this server's own simulator of
   * VNPay's pay page (server/modules/payments/sandbox.ts), signed with a generated development secret. Default on
   * outside production while VNPAY_TMN_CODE / VNPAY_HASH_SECRET are unset; never allowed in production.
   */
  vnpaySandbox: boolean;
  /** This server's public base URL (no trailing slash): VNPay return and IPN URLs are built on it. */
  publicApiUrl: string;
  /** PUBLIC_API_URL was set: outside production, unset → VNPay's return URL is built on the address a request arrived on. */
  publicApiUrlExplicit: boolean;
  /**
   * Where the assistant's tools reach the assistant-safe endpoints (ASSISTANT_API_BASE_URL, no trailing slash).
   * Unset → this server itself: the address a request reached it on, or before any request
   * `http://<HOST or 127.0.0.1>:<PORT>` (see server/assistant/address.ts).
   */
  assistantApiBaseUrl: string | undefined;
  /** Time-out of one tool call to the assistant-safe endpoints. */
  assistantApiTimeoutMs: number;
  /**
   * ASSISTANT_MODEL: `offline` (the grounded offline model), `mistral`, `openai-compatible` (a self-hosted model
   * behind an OpenAI-style chat-completions API: Ollama, vLLM, llama.cpp server), or unset → mistral when
   * MISTRAL_API_KEY is set.
   */
  assistantModel: 'offline' | 'mistral' | 'openai-compatible';
  /** Model steps (tool rounds + the answer) of one turn at most. */
  assistantMaxSteps: number;
  mistralApiKey: string | undefined;
  mistralModel: string;
  /** MISTRAL_BASE_URL: Mistral's API (or a proxy of it), `…/v1`. */
  mistralBaseUrl: string;
  /** ASSISTANT_OPENAI_BASE_URL: the OpenAI-compatible server's API, `…/v1` (required with `openai-compatible`). */
  assistantOpenaiBaseUrl: string | undefined;
  /** ASSISTANT_OPENAI_MODEL: the model the server serves (required with `openai-compatible`). */
  assistantOpenaiModel: string | undefined;
  /** ASSISTANT_OPENAI_API_KEY: sent as a bearer token when set (most self-hosted servers need none). */
  assistantOpenaiApiKey: string | undefined;
  /** `/llm/chat`, `/api/ai/demo` and the legacy chat route: turns one client address may start per minute. */
  llmChatRateLimitPerMinute: number;
  /** `$ai_generation` events to PostHog for every generation (spec §6.5); needs ANALYTICS_ENABLED too. */
  aiObservabilityEnabled: boolean;
  /** Include the turn's input and output in `$ai_generation` (off until retention and redaction are approved). */
  aiObservabilityCaptureContent: boolean;
  /** The venue's bank account guests transfer to (BANK_TRANSFER_ACCOUNT_NAME/NUMBER, BANK_TRANSFER_BANK); all three set → bank transfer is offered at checkout. */
  bankTransfer: { accountName: string; accountNumber: string; bankName: string } | undefined;
  /** The public (guest) website's base URL (no trailing slash): the assistant's links are `<publicSiteUrl>/<locale>/…`. */
  publicSiteUrl: string;
  /** Cloudflare Turnstile secret (BOTCHECK_SECRET_KEY); set → `POST /api/inquiries` requires a verified token. */
  botcheckSecretKey: string | undefined;
  /** Turnstile siteverify endpoint. */
  botcheckVerifyUrl: string;
  /** Time-out of one siteverify request; past it the inquiry is refused with 503 (nothing stored). */
  botcheckTimeoutMs: number;
  /** When set, siteverify's `hostname` must equal it. */
  botcheckHostname: string | undefined;
  /** When set, siteverify's `action` must equal it. */
  botcheckAction: string | undefined;
  /** Where the venue is told of new inquiries and sent website chat transcripts (VENUE_NOTIFICATIONS_EMAIL); unset → no e-mail (transcripts are still stored). */
  venueNotificationsEmail: string | undefined;
  /** How long a waiting-list offer holds its seats (WAITLIST_OFFER_HOURS). */
  waitlistOfferHours: number;
  /** Hours before the show the guest's reminder e-mail is sent (REMINDER_HOURS_BEFORE); 0 → no reminders. */
  reminderHoursBefore: number;
  /** The venue's street address (VENUE_ADDRESS): the confirmation's calendar event location, after the venue name. */
  venueAddress: string | undefined;
  /**
   * The guest site's page for a waiting-list offer (issue 34 §3); the e-mailed link is `<url>?event=<slug>&token=<token>`,
   * with `{locale}` in it replaced by the guest's locale. Default `<publicSiteUrl>/{locale}/waitlist-offer`; production
   * refuses one on the API's own origin (server/platform/guardRails.ts).
   */
  waitlistOfferUrl: string;
  /** Slack/Discord-compatible webhook told of each visit (best effort, from memory); unset → no notification. */
  visitNotificationWebhookUrl: string | undefined;
  /** Time-out of one visit notification. */
  visitNotificationTimeoutMs: number;
  /** Visit notifications waiting or in flight at most; more are dropped (never queued durably). */
  visitNotificationMaxPending: number;
  /** `POST /api/system/visit-notification` per client address per minute. */
  visitRateLimitPerMinute: number;
  /** Meta Conversions API: pixel (dataset) id; with META_CAPI_ACCESS_TOKEN unset → conversions are off. */
  metaPixelId: string | undefined;
  metaCapiAccessToken: string | undefined;
  /** Sent as `test_event_code` when set (Events Manager's test events). */
  metaTestEventCode: string | undefined;
  /** Graph API base URL (no trailing slash). */
  metaGraphApiUrl: string;
  /** Graph API version path segment, `v21.0`. */
  metaGraphApiVersion: string;
  /** Time-out of one request to the Graph API. */
  metaCapiTimeoutMs: number;
  /** `POST /api/analytics/meta/outbound-event` per client address per minute. */
  metaEventRateLimitPerMinute: number;
  /** The chat platform's API (ManyChat, `POST /fb/sending/sendContent`) and its token (CHAT_API_TOKEN); unset token → background turns fail `not_configured`. */
  chatApi: { baseUrl: string; token: string | undefined; timeoutMs: number };
  /**
   * WebAuthn (passkeys of dashboard accounts): the relying party's id (a host name: the dashboard's or a parent
   * domain of it), its display name, the exact origins a ceremony may come from (each on the RP ID or a subdomain of
   * it), and how long a challenge stays usable.
   */
  webauthn: { rpId: string; rpName: string; origins: string[]; challengeTtlSeconds: number };
  /** Meta's WhatsApp Cloud API (Graph API): base URL with version, the business phone number id, access token, app secret (X-Hub-Signature-256). */
  messaging: { graphApiBaseUrl: string; phoneNumberId: string | undefined; accessToken: string | undefined; appSecret: string | undefined; timeoutMs: number };
  /**
   * Prometheus metrics (issue 25 §5): served on METRICS_PORT by a small server of their own (bound to METRICS_HOST),
   * or, with METRICS_PORT unset, at `GET /metrics` of the API behind `Authorization: Bearer <METRICS_TOKEN>`. Neither
   * set: metrics are off (nothing is counted, /metrics answers 404). `token` also guards the separate port when set.
   */
  metrics: { enabled: boolean; port: number | undefined; host: string; token: string | undefined };
  /**
   * OpenTelemetry tracing (issue 25 §6): on only when OTEL_EXPORTER_OTLP_ENDPOINT is set (spans go to
   * `<endpoint>/v1/traces` over OTLP/HTTP); off, nothing of the OpenTelemetry SDK is loaded.
   */
  tracing: { endpoint: string | undefined; serviceName: string };
  /**
   * Webhooks to the venue's other systems (issue 36 §3): the time-out of one delivery, the delays before each retry
   * (seconds, in order; one attempt more than there are delays), how long an endpoint may fail every attempt before it
   * is disabled (0: never), how long a rotated secret still signs beside the new one, and the private, loopback,
   * link-local or unique-local networks deliveries may reach (CIDRs; none by default: those addresses are refused).
   */
  webhooks: { timeoutMs: number; retryScheduleSeconds: number[]; disableAfterHours: number; secretOverlapHours: number; allowedNetworks: string[] };
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = oneOf(env, 'NODE_ENV', ['development', 'production', 'test'] as const, 'development');
  const tokens = (str(env, 'SUPERUSER_API_TOKENS') ?? str(env, 'SUPERUSER_API_TOKEN') ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean);
  const analyticsEnabled = bool(env, 'ANALYTICS_ENABLED', false);
  const posthogApiKey = str(env, 'POSTHOG_API_KEY');
  if (analyticsEnabled && !posthogApiKey) throw new ConfigError('POSTHOG_API_KEY is required when ANALYTICS_ENABLED=true');
  const siteLocales = locales(env);
  const publicSiteUrl = httpUrl(env, 'PUBLIC_SITE_URL', 'http://localhost:5173');
  const storageDriver = oneOf(env, 'STORAGE_DRIVER', ['local', 's3'] as const, 'local');
  const s3Bucket = str(env, 'STORAGE_S3_BUCKET');
  if (storageDriver === 's3' && !s3Bucket) throw new ConfigError('STORAGE_S3_BUCKET is required when STORAGE_DRIVER=s3');
  const port = int(env, 'PORT', 3000, 0, 65535);
  const metricsSettings = metrics(env, port);
  return {
    nodeEnv,
    port,
    host: str(env, 'HOST') ?? '0.0.0.0',
    databaseUrl: str(env, 'DATABASE_URL'),
    databasePoolMin: int(env, 'DATABASE_POOL_MIN', 0, 0, 10),
    dataDir: path.resolve(str(env, 'DATA_DIR') ?? './.data'),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    emailDomain: (str(env, 'EMAIL_DOMAIN') ?? 'venue.local').toLowerCase(),
    superuserApiTokens: tokens,
    accessTokens: {
      'service-token': str(env, 'SVC_LLM_SERVICE_TOKEN'),
      'chat-webhook-token': str(env, 'CHAT_WEBHOOK_TOKEN'),
      'messaging-verify-token': str(env, 'MESSAGING_VERIFY_TOKEN'),
      // The API serves /metrics only when no separate METRICS_PORT does.
      'metrics-token': metricsSettings.port === undefined ? metricsSettings.token : undefined,
    },
    publicApiPolicyMode: oneOf(env, 'PUBLIC_API_POLICY_MODE', ['report', 'enforce', 'off'] as const, 'report'),
    allowedOrigin: str(env, 'ALLOWED_ORIGIN') ?? '*',
    dashboardOrigins: origins(env, 'DASHBOARD_ORIGINS'),
    sessionCookie: sessionCookie(env, nodeEnv),
    trustProxy: bool(env, 'TRUST_PROXY', false),
    sessionTtlSeconds: int(env, 'SESSION_TTL_SECONDS', 7 * 24 * 3600, 60, 365 * 24 * 3600),
    signInMaxFailures: int(env, 'SIGN_IN_MAX_FAILURES', 5, 1, 1000),
    signInWindowSeconds: int(env, 'SIGN_IN_WINDOW_SECONDS', 15 * 60, 1, 24 * 3600),
    credentialFailureLimit: int(env, 'CREDENTIAL_FAILURE_LIMIT', 20, 1, 1_000_000),
    credentialFailureWindowSeconds: int(env, 'CREDENTIAL_FAILURE_WINDOW_SECONDS', 15 * 60, 1, 24 * 3600),
    jsonBodyLimitBytes: int(env, 'JSON_BODY_LIMIT_BYTES', 1024 * 1024, 1024, 50 * 1024 * 1024),
    allowDatabaseReset: bool(env, 'ALLOW_DATABASE_RESET', false),
    apiKeyCacheMs: int(env, 'API_KEY_CACHE_MS', 10_000, 0, 300_000),
    catalogCacheEntries: int(env, 'CATALOG_CACHE_ENTRIES', 500, 0, 100_000),
    catalogCacheMaxAgeSeconds: int(env, 'CATALOG_CACHE_MAX_AGE_SECONDS', 60, 1, 24 * 3600),
    apiKeyUsageFlushMs: int(env, 'API_KEY_USAGE_FLUSH_MS', 5_000, 10, 600_000),
    validateResponses: bool(env, 'VALIDATE_RESPONSES', nodeEnv !== 'production'),
    seedPasswords: {
      admin: str(env, 'SEED_ADMIN_PASSWORD'),
      marketing: str(env, 'SEED_MARKETING_PASSWORD'),
      staff: str(env, 'SEED_STAFF_PASSWORD'),
    },
    seedOnStart: bool(env, 'SEED_ON_START', true),
    ...processRole(env),
    jobLostAfterSeconds: int(env, 'JOB_LOST_AFTER_SECONDS', 30, 3, 3600),
    jobPollIntervalSeconds: int(env, 'JOB_POLL_INTERVAL_SECONDS', 2, 1, 600),
    jobMaintenanceIntervalSeconds: int(env, 'JOB_MAINTENANCE_INTERVAL_SECONDS', 10, 1, 3600),
    jobShutdownTimeoutMs: int(env, 'JOB_SHUTDOWN_TIMEOUT_MS', 10_000, 1000, 600_000),
    smtpUrl: smtpUrl(env),
    emailFrom: str(env, 'EMAIL_FROM') ?? 'Venue <no-reply@venue.local>',
    smtpTimeoutMs: int(env, 'SMTP_TIMEOUT_MS', 10_000, 100, 300_000),
    analyticsEnabled,
    posthogApiKey,
    posthogHost: (str(env, 'POSTHOG_HOST') ?? 'https://us.i.posthog.com').replace(/\/+$/, ''),
    analyticsTimeoutMs: int(env, 'ANALYTICS_TIMEOUT_MS', 5_000, 100, 60_000),
    uploadBodyLimitBytes: int(env, 'UPLOAD_BODY_LIMIT_BYTES', 10 * 1024 * 1024, 1024, 512 * 1024 * 1024),
    storageDriver,
    storageS3Endpoint: str(env, 'STORAGE_S3_ENDPOINT'),
    storageS3Bucket: s3Bucket,
    storageS3Region: str(env, 'STORAGE_S3_REGION') ?? 'us-east-1',
    storageS3AccessKeyId: str(env, 'STORAGE_S3_ACCESS_KEY_ID'),
    storageS3SecretAccessKey: str(env, 'STORAGE_S3_SECRET_ACCESS_KEY'),
    storageS3ForcePathStyle: bool(env, 'STORAGE_S3_FORCE_PATH_STYLE', false),
    // 10 × the default SIGN_IN_MAX_FAILURES: a shared address (an office, a NAT) holds many accounts.
    signInMaxFailuresPerAddress: int(env, 'SIGN_IN_MAX_FAILURES_PER_ADDRESS', 50, 1, 100_000),
    siteLocales,
    defaultLocale: siteLocales[0],
    venueTimezone: timezone(env),
    ...vnpay(env, nodeEnv),
    publicApiUrl: httpUrl(env, 'PUBLIC_API_URL', 'http://localhost:3000'),
    publicApiUrlExplicit: str(env, 'PUBLIC_API_URL') !== undefined,
    ...assistant(env),
    bankTransfer: bankTransfer(env),
    publicSiteUrl,
    webauthn: webauthn(env, origins(env, 'DASHBOARD_ORIGINS'), publicSiteUrl),
    botcheckSecretKey: str(env, 'BOTCHECK_SECRET_KEY'),
    botcheckVerifyUrl: httpUrl(env, 'BOTCHECK_VERIFY_URL', 'https://challenges.cloudflare.com/turnstile/v0/siteverify'),
    botcheckTimeoutMs: int(env, 'BOTCHECK_TIMEOUT_MS', 5_000, 100, 60_000),
    botcheckHostname: str(env, 'BOTCHECK_HOSTNAME'),
    botcheckAction: str(env, 'BOTCHECK_ACTION'),
    venueNotificationsEmail: str(env, 'VENUE_NOTIFICATIONS_EMAIL'),
    waitlistOfferHours: int(env, 'WAITLIST_OFFER_HOURS', 24, 1, 336),
    reminderHoursBefore: int(env, 'REMINDER_HOURS_BEFORE', 24, 0, 336),
    venueAddress: str(env, 'VENUE_ADDRESS'),
    waitlistOfferUrl: httpUrl(env, 'WAITLIST_OFFER_URL', `${publicSiteUrl}/{locale}/waitlist-offer`),
    ...visitsAndMeta(env),
    chatApi: {
      baseUrl: httpUrl(env, 'CHAT_API_BASE_URL', 'https://api.manychat.com'),
      token: str(env, 'CHAT_API_TOKEN'),
      timeoutMs: int(env, 'CHAT_API_TIMEOUT_MS', 10_000, 100, 120_000),
    },
    messaging: {
      graphApiBaseUrl: httpUrl(env, 'GRAPH_API_BASE_URL', 'https://graph.facebook.com/v23.0'),
      phoneNumberId: str(env, 'MESSAGING_PHONE_NUMBER_ID'),
      accessToken: str(env, 'MESSAGING_ACCESS_TOKEN'),
      appSecret: str(env, 'MESSAGING_APP_SECRET'),
      timeoutMs: int(env, 'MESSAGING_TIMEOUT_MS', 10_000, 100, 120_000),
    },
    metrics: metricsSettings,
    tracing: tracingSettings(env),
    webhooks: webhooks(env),
  };
}

/**
 * PROCESS_ROLE, and JOB_WORKERS before it: `JOB_WORKERS=false` (HTTP that only enqueues) still works and means
 * `PROCESS_ROLE=api`, with a deprecation notice; the two may not contradict each other. Roles other than `all` need
 * PostgreSQL (the embedded database belongs to one process, which must do everything), and a worker needs
 * ASSISTANT_API_BASE_URL: the assistant's tools in a chat turn call the API, which a worker does not serve.
 */
function processRole(env: Env): { processRole: ProcessRole; jobWorkers: boolean; deprecations: string[] } {
  const explicit = str(env, 'PROCESS_ROLE');
  let role = oneOf(env, 'PROCESS_ROLE', ['all', 'api', 'worker'] as const, 'all');
  const legacy = str(env, 'JOB_WORKERS') === undefined ? undefined : bool(env, 'JOB_WORKERS', true);
  const deprecations: string[] = [];
  if (legacy !== undefined) {
    if (explicit === undefined) {
      if (!legacy) role = 'api';
      deprecations.push(`JOB_WORKERS is deprecated: use PROCESS_ROLE=${legacy ? 'all' : 'api'}`);
    } else if (legacy !== (role !== 'api')) {
      throw new ConfigError(`JOB_WORKERS=${legacy} contradicts PROCESS_ROLE=${role}: unset JOB_WORKERS (deprecated; PROCESS_ROLE=api is a process without job workers)`);
    } else {
      deprecations.push('JOB_WORKERS is deprecated and redundant with PROCESS_ROLE: unset it');
    }
  }
  if (role !== 'all' && !str(env, 'DATABASE_URL')) {
    const setting = explicit === undefined ? 'JOB_WORKERS=false (that is PROCESS_ROLE=api)' : `PROCESS_ROLE=${role}`;
    throw new ConfigError(`${setting} needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process, which runs everything (PROCESS_ROLE=all)`);
  }
  if (role === 'worker' && !str(env, 'ASSISTANT_API_BASE_URL')) {
    throw new ConfigError('PROCESS_ROLE=worker needs ASSISTANT_API_BASE_URL (an API process or the load balancer): chat turns call the assistant-safe endpoints, which a worker does not serve');
  }
  return { processRole: role, jobWorkers: role !== 'api', deprecations };
}

function metrics(env: Env, apiPort: number): Config['metrics'] {
  // 0 (the default): no separate metrics server.
  const port = int(env, 'METRICS_PORT', 0, 0, 65535) || undefined;
  const token = str(env, 'METRICS_TOKEN');
  if (token !== undefined && token.length < 16) throw new ConfigError('METRICS_TOKEN must be at least 16 characters (a random secret: openssl rand -hex 24)');
  if (port !== undefined && port === apiPort) {
    throw new ConfigError('METRICS_PORT must differ from PORT (the metrics server listens apart from the API)');
  }
  return { enabled: port !== undefined || token !== undefined, port, host: str(env, 'METRICS_HOST') ?? '127.0.0.1', token };
}

function tracingSettings(env: Env): Config['tracing'] {
  const raw = str(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const endpoint = raw === undefined ? undefined : httpUrl(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', raw);
  const serviceName = str(env, 'OTEL_SERVICE_NAME') ?? 'venue-backend';
  if (!/^[\w.\-/:]{1,128}$/.test(serviceName)) throw new ConfigError(`OTEL_SERVICE_NAME must be 1–128 letters, digits, and . - _ / :, got "${serviceName}"`);
  return { endpoint, serviceName };
}

function visitsAndMeta(env: Env) {
  const webhook = str(env, 'VISIT_NOTIFICATION_WEBHOOK_URL');
  const metaPixelId = str(env, 'META_PIXEL_ID');
  if (metaPixelId !== undefined && !/^\d{1,32}$/.test(metaPixelId)) throw new ConfigError(`META_PIXEL_ID must be the pixel's digits, got "${metaPixelId}"`);
  const metaGraphApiVersion = str(env, 'META_GRAPH_API_VERSION') ?? 'v21.0';
  if (!/^v\d{1,3}\.\d{1,3}$/.test(metaGraphApiVersion)) throw new ConfigError(`META_GRAPH_API_VERSION must look like v21.0, got "${metaGraphApiVersion}"`);
  return {
    visitNotificationWebhookUrl: webhook === undefined ? undefined : httpUrl(env, 'VISIT_NOTIFICATION_WEBHOOK_URL', webhook),
    visitNotificationTimeoutMs: int(env, 'VISIT_NOTIFICATION_TIMEOUT_MS', 5_000, 100, 60_000),
    visitNotificationMaxPending: int(env, 'VISIT_NOTIFICATION_MAX_PENDING', 20, 1, 10_000),
    visitRateLimitPerMinute: int(env, 'VISIT_RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
    metaPixelId,
    metaCapiAccessToken: str(env, 'META_CAPI_ACCESS_TOKEN'),
    metaTestEventCode: str(env, 'META_TEST_EVENT_CODE'),
    metaGraphApiUrl: httpUrl(env, 'META_GRAPH_API_URL', 'https://graph.facebook.com'),
    metaGraphApiVersion,
    metaCapiTimeoutMs: int(env, 'META_CAPI_TIMEOUT_MS', 10_000, 100, 120_000),
    metaEventRateLimitPerMinute: int(env, 'META_EVENT_RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
  };
}

/** Bank transfer details: all three or none (none: bank transfer is not offered). */
function bankTransfer(env: Env): Config['bankTransfer'] {
  const accountName = str(env, 'BANK_TRANSFER_ACCOUNT_NAME');
  const accountNumber = str(env, 'BANK_TRANSFER_ACCOUNT_NUMBER');
  const bankName = str(env, 'BANK_TRANSFER_BANK');
  const set = [accountName, accountNumber, bankName].filter(Boolean).length;
  if (set === 0) return undefined;
  if (set !== 3) throw new ConfigError('BANK_TRANSFER_ACCOUNT_NAME, BANK_TRANSFER_ACCOUNT_NUMBER and BANK_TRANSFER_BANK are set together (all unset: bank transfer is off)');
  return { accountName: accountName!, accountNumber: accountNumber!, bankName: bankName! };
}

function locales(env: Env): string[] {
  const raw = str(env, 'SITE_LOCALES') ?? 'en,vi';
  const list = [...new Set(raw.split(',').map((locale) => locale.trim()).filter(Boolean))];
  for (const locale of list) {
    if (!/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(locale)) throw new ConfigError(`SITE_LOCALES: "${locale}" is not a locale tag such as en or vi`);
  }
  if (list.length === 0) throw new ConfigError('SITE_LOCALES must name at least one locale');
  return list;
}

function timezone(env: Env): string {
  const zone = str(env, 'VENUE_TIMEZONE') ?? 'Asia/Ho_Chi_Minh';
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    throw new ConfigError(`VENUE_TIMEZONE must be an IANA time zone such as Asia/Ho_Chi_Minh, got "${zone}"`);
  }
  return zone;
}

/** A comma-separated list of exact origins (`https://dash.example.com`, `http://localhost:5173`): no path, no `*`. */
function origins(env: Env, name: string): string[] {
  const list = (str(env, name) ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of list) {
    const url = URL.canParse(entry) ? new URL(entry) : undefined;
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== entry.replace(/\/$/, '')) {
      throw new ConfigError(`${name}: "${entry}" is not an origin such as https://dashboard.example.com (scheme, host and port only; no "*")`);
    }
  }
  return list.map((entry) => new URL(entry).origin);
}

/**
 * WebAuthn's relying party. Unset, the origins are DASHBOARD_ORIGINS (the dashboard is where passkeys are used), else
 * the public site's origin; the RP ID is the first origin's host. An origin not on the RP ID (or a subdomain of it)
 * can run no ceremony in a browser: one listed in WEBAUTHN_ORIGINS is a start-up error rather than a puzzle later;
 * one only derived (a second dashboard origin on another host, e.g. a development `localhost`) is left out.
 */
function webauthn(env: Env, dashboardOrigins: string[], publicSiteUrl: string): Config['webauthn'] {
  const listed = origins(env, 'WEBAUTHN_ORIGINS');
  const candidates = listed.length > 0 ? listed : dashboardOrigins.length > 0 ? dashboardOrigins : [new URL(publicSiteUrl).origin];
  const rpId = (str(env, 'WEBAUTHN_RP_ID') ?? new URL(candidates[0]).hostname).toLowerCase();
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(rpId)) {
    throw new ConfigError(`WEBAUTHN_RP_ID must be a host name such as dashboard.example.com (no scheme, port or path), got "${rpId}"`);
  }
  const onRpId = (origin: string) => {
    const host = new URL(origin).hostname;
    return host === rpId || host.endsWith(`.${rpId}`);
  };
  for (const origin of listed) {
    if (!onRpId(origin)) {
      throw new ConfigError(`WebAuthn origin ${origin} is not on WEBAUTHN_RP_ID "${rpId}" or a subdomain of it (set WEBAUTHN_ORIGINS / WEBAUTHN_RP_ID)`);
    }
  }
  const allowed = candidates.filter(onRpId);
  if (allowed.length === 0) {
    throw new ConfigError(`no WebAuthn origin is on WEBAUTHN_RP_ID "${rpId}" (set WEBAUTHN_ORIGINS to the dashboard's origins on it)`);
  }
  return {
    rpId,
    rpName: str(env, 'WEBAUTHN_RP_NAME') ?? 'Venue dashboard',
    origins: allowed,
    challengeTtlSeconds: int(env, 'WEBAUTHN_CHALLENGE_TTL_SECONDS', 300, 10, 3600),
  };
}

function sessionCookie(env: Env, nodeEnv: NodeEnv): Config['sessionCookie'] {
  const sameSite = oneOf(env, 'SESSION_COOKIE_SAMESITE', ['lax', 'strict', 'none'] as const, 'lax');
  // SameSite=None without Secure is dropped by browsers; production cookies are Secure whatever the request's scheme.
  return { sameSite, alwaysSecure: nodeEnv === 'production' || sameSite === 'none' };
}

function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = str(env, name) ?? fallback;
  if (!/^https?:\/\/[^/\s]/i.test(raw) || !URL.canParse(raw)) throw new ConfigError(`${name} must be an http:// or https:// URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

function vnpay(env: Env, nodeEnv: NodeEnv) {
  const vnpayTmnCode = str(env, 'VNPAY_TMN_CODE');
  const vnpayHashSecret = str(env, 'VNPAY_HASH_SECRET');
  if (Boolean(vnpayTmnCode) !== Boolean(vnpayHashSecret)) {
    throw new ConfigError('VNPAY_TMN_CODE and VNPAY_HASH_SECRET are set together (both unset: VNPay is off)');
  }
  const vnpaySandbox = bool(env, 'VNPAY_SANDBOX', nodeEnv !== 'production' && !vnpayTmnCode);
  if (vnpaySandbox && nodeEnv === 'production') {
    throw new ConfigError('VNPAY_SANDBOX=true is not allowed with NODE_ENV=production: the simulated pay page would confirm bookings nobody paid for (unset VNPAY_SANDBOX, set VNPAY_TMN_CODE and VNPAY_HASH_SECRET)');
  }
  if (vnpaySandbox && vnpayTmnCode) {
    throw new ConfigError('VNPAY_SANDBOX=true cannot be used with VNPAY_TMN_CODE / VNPAY_HASH_SECRET set: choose the simulator or VNPay');
  }
  return {
    vnpayTmnCode,
    vnpayHashSecret,
    vnpaySandbox,
    vnpayPaymentUrl: httpUrl(env, 'VNPAY_PAYMENT_URL', 'https://sandbox.vnpayment.vn/paymentv2/vpcpay.html'),
    vnpayApiUrl: httpUrl(env, 'VNPAY_API_URL', 'https://sandbox.vnpayment.vn/merchant_webapi/api/transaction'),
    vnpayTimeoutMs: int(env, 'VNPAY_TIMEOUT_MS', 10_000, 100, 120_000),
  };
}

/** Issue 36 §3: retries for about a day (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: eight attempts over 27.6 h). */
function webhooks(env: Env): Config['webhooks'] {
  const schedule = str(env, 'WEBHOOK_RETRY_SCHEDULE_SECONDS') ?? '5,300,1800,7200,18000,36000,36000';
  const entries = schedule.split(',').map((entry) => entry.trim());
  const retryScheduleSeconds = entries.map(Number);
  if (entries.length > 20 || entries.some((entry) => !/^\d{1,6}$/.test(entry)) || retryScheduleSeconds.some((delay) => delay > 172_800)) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE_SECONDS must be at most 20 comma-separated whole numbers of seconds from 0 to 172800, got "${schedule}"`);
  }
  const allowedNetworks = (str(env, 'WEBHOOK_ALLOWED_NETWORKS') ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const network of allowedNetworks) {
    const [address, prefix, extra] = network.split('/');
    const family = net.isIP(address);
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
    if (!family || extra !== undefined || (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) || !Number.isInteger(bits) || bits < 0 || bits > (family === 6 ? 128 : 32)) {
      throw new ConfigError(`WEBHOOK_ALLOWED_NETWORKS: "${network}" is not an address or a CIDR network such as 10.0.0.0/8 or fd00::/8`);
    }
  }
  return {
    timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 500, 60_000),
    retryScheduleSeconds,
    disableAfterHours: int(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 24, 0, 720),
    secretOverlapHours: int(env, 'WEBHOOK_SECRET_OVERLAP_HOURS', 24, 0, 168),
    allowedNetworks,
  };
}

function smtpUrl(env: Env): string | undefined {
  const raw = str(env, 'SMTP_URL');
  if (raw !== undefined && !/^smtps?:\/\/[^/]/i.test(raw)) {
    throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  return raw;
}

function assistant(env: Env) {
  const mistralApiKey = str(env, 'MISTRAL_API_KEY');
  const assistantModel = oneOf(env, 'ASSISTANT_MODEL', ['offline', 'mistral', 'openai-compatible'] as const, mistralApiKey ? 'mistral' : 'offline');
  if (assistantModel === 'mistral' && !mistralApiKey) throw new ConfigError('MISTRAL_API_KEY is required when ASSISTANT_MODEL=mistral');
  const openaiBase = str(env, 'ASSISTANT_OPENAI_BASE_URL');
  const openaiModel = str(env, 'ASSISTANT_OPENAI_MODEL');
  if (assistantModel === 'openai-compatible') {
    if (!openaiBase) throw new ConfigError('ASSISTANT_OPENAI_BASE_URL is required when ASSISTANT_MODEL=openai-compatible');
    if (!openaiModel) throw new ConfigError('ASSISTANT_OPENAI_MODEL is required when ASSISTANT_MODEL=openai-compatible');
  }
  const base = str(env, 'ASSISTANT_API_BASE_URL');
  return {
    assistantApiBaseUrl: base === undefined ? undefined : httpUrl(env, 'ASSISTANT_API_BASE_URL', base),
    assistantApiTimeoutMs: int(env, 'ASSISTANT_API_TIMEOUT_MS', 10_000, 100, 120_000),
    assistantModel,
    assistantMaxSteps: int(env, 'ASSISTANT_MAX_STEPS', 5, 1, 20),
    mistralApiKey,
    mistralModel: str(env, 'MISTRAL_MODEL') ?? 'mistral-small-latest',
    mistralBaseUrl: httpUrl(env, 'MISTRAL_BASE_URL', 'https://api.mistral.ai/v1'),
    assistantOpenaiBaseUrl: openaiBase === undefined ? undefined : httpUrl(env, 'ASSISTANT_OPENAI_BASE_URL', openaiBase),
    assistantOpenaiModel: openaiModel,
    assistantOpenaiApiKey: str(env, 'ASSISTANT_OPENAI_API_KEY'),
    llmChatRateLimitPerMinute: int(env, 'LLM_CHAT_RATE_LIMIT_PER_MINUTE', 20, 1, 100_000),
    aiObservabilityEnabled: bool(env, 'ANALYTICS_AI_OBSERVABILITY_ENABLED', false),
    aiObservabilityCaptureContent: bool(env, 'ANALYTICS_AI_OBSERVABILITY_CAPTURE_CONTENT', false),
  };
}
