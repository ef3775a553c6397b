import path from 'node:path';

/** Every environment variable the server reads, typed, with its default. README mirrors this table. */
export type PolicyMode = 'report' | 'enforce' | 'off';
export type NodeEnv = 'development' | 'production' | 'test';

export interface Config {
  nodeEnv: NodeEnv;
  port: number;
  host: string;
  /** Unset → embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: string;
  emailDomain: string;
  superuserApiTokens: string[];
  publicApiPolicyMode: PolicyMode;
  allowedOrigin: string;
  trustProxy: boolean;
  sessionTtlSeconds: number;
  signInMaxFailures: number;
  signInWindowSeconds: number;
  jsonBodyLimitBytes: number;
  allowDatabaseReset: boolean;
  /** How long an accepted API key is remembered by a process (0: looked up on every request). */
  apiKeyCacheMs: number;
  /** How often counted API-key uses are written to the database. */
  apiKeyUsageFlushMs: number;
  /** Validate every response against the contract (on outside production). */
  validateResponses: boolean;
  seedPasswords: { admin?: string; marketing?: string; staff?: string };
  /** `npm start` seeds the embedded database on boot unless false. */
  seedOnStart: boolean;
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
  const storageDriver = oneOf(env, 'STORAGE_DRIVER', ['local', 's3'] as const, 'local');
  const s3Bucket = str(env, 'STORAGE_S3_BUCKET');
  if (storageDriver === 's3' && !s3Bucket) throw new ConfigError('STORAGE_S3_BUCKET is required when STORAGE_DRIVER=s3');
  return {
    nodeEnv,
    port: int(env, 'PORT', 3000, 0, 65535),
    host: str(env, 'HOST') ?? '0.0.0.0',
    databaseUrl: str(env, 'DATABASE_URL'),
    dataDir: path.resolve(str(env, 'DATA_DIR') ?? './.data'),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    emailDomain: (str(env, 'EMAIL_DOMAIN') ?? 'venue.local').toLowerCase(),
    superuserApiTokens: tokens,
    publicApiPolicyMode: oneOf(env, 'PUBLIC_API_POLICY_MODE', ['report', 'enforce', 'off'] as const, 'report'),
    allowedOrigin: str(env, 'ALLOWED_ORIGIN') ?? '*',
    trustProxy: bool(env, 'TRUST_PROXY', false),
    sessionTtlSeconds: int(env, 'SESSION_TTL_SECONDS', 7 * 24 * 3600, 60, 365 * 24 * 3600),
    signInMaxFailures: int(env, 'SIGN_IN_MAX_FAILURES', 5, 1, 1000),
    signInWindowSeconds: int(env, 'SIGN_IN_WINDOW_SECONDS', 15 * 60, 1, 24 * 3600),
    jsonBodyLimitBytes: int(env, 'JSON_BODY_LIMIT_BYTES', 1024 * 1024, 1024, 50 * 1024 * 1024),
    allowDatabaseReset: bool(env, 'ALLOW_DATABASE_RESET', false),
    apiKeyCacheMs: int(env, 'API_KEY_CACHE_MS', 10_000, 0, 300_000),
    apiKeyUsageFlushMs: int(env, 'API_KEY_USAGE_FLUSH_MS', 5_000, 10, 600_000),
    validateResponses: bool(env, 'VALIDATE_RESPONSES', nodeEnv !== 'production'),
    seedPasswords: {
      admin: str(env, 'SEED_ADMIN_PASSWORD'),
      marketing: str(env, 'SEED_MARKETING_PASSWORD'),
      staff: str(env, 'SEED_STAFF_PASSWORD'),
    },
    seedOnStart: bool(env, 'SEED_ON_START', true),
    uploadBodyLimitBytes: int(env, 'UPLOAD_BODY_LIMIT_BYTES', 10 * 1024 * 1024, 1024, 512 * 1024 * 1024),
    storageDriver,
    storageS3Endpoint: str(env, 'STORAGE_S3_ENDPOINT'),
    storageS3Bucket: s3Bucket,
    storageS3Region: str(env, 'STORAGE_S3_REGION') ?? 'us-east-1',
    storageS3AccessKeyId: str(env, 'STORAGE_S3_ACCESS_KEY_ID'),
    storageS3SecretAccessKey: str(env, 'STORAGE_S3_SECRET_ACCESS_KEY'),
    storageS3ForcePathStyle: bool(env, 'STORAGE_S3_FORCE_PATH_STYLE', false),
  };
}
