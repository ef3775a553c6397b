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
   * Failed sign-ins one client address may have per SIGN_IN_WINDOW_SECONDS, across all identifiers (the
   * per identifier + address limit is signInMaxFailures). Past it: 429.
   */
  signInMaxFailuresPerAddress: number;
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
    // 10 × the default SIGN_IN_MAX_FAILURES: a shared address (an office, a NAT) holds many accounts.
    signInMaxFailuresPerAddress: int(env, 'SIGN_IN_MAX_FAILURES_PER_ADDRESS', 50, 1, 100_000),
  };
}
