import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { Contract } from './http/contract.ts';
import type { Logger } from './logger.ts';
import { ApiKeyCredentials } from './auth/apiKeyCredentials.ts';
import { SignInThrottle } from './auth/throttle.ts';
import { createStorage, type StorageDriver } from './storage/index.ts';

/** The services every handler can reach through `call.app`. One per running app. */
export interface AppContext {
  config: Config;
  db: Database;
  logger: Logger;
  contract: Contract;
  signInThrottle: SignInThrottle;
  /** API-key lookups (cached) and usage counting; administration commands call `invalidate()`. */
  credentials: ApiKeyCredentials;
  startedAt: number;
  /** Object storage for blobs (local disk or S3-compatible, from STORAGE_DRIVER). */
  storage: StorageDriver;
}

export function createAppContext(deps: { config: Config; db: Database; logger: Logger; contract: Contract; storage?: StorageDriver }): AppContext {
  return {
    ...deps,
    storage: deps.storage ?? createStorage(deps.config),
    signInThrottle: new SignInThrottle(deps.config.signInMaxFailures, deps.config.signInWindowSeconds * 1000),
    credentials: new ApiKeyCredentials(deps.db.knex, deps.logger, deps.config.apiKeyCacheMs, deps.config.apiKeyUsageFlushMs),
    startedAt: Date.now(),
  };
}
