import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { Contract } from './http/contract.ts';
import type { Logger } from './logger.ts';
import { ApiKeyCredentials } from './auth/apiKeyCredentials.ts';
import { SignInThrottle } from './auth/throttle.ts';
import { rateLimitStoreFor } from './http/rateLimit.ts';

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
}

export function createAppContext(deps: { config: Config; db: Database; logger: Logger; contract: Contract }): AppContext {
  return {
    ...deps,
    signInThrottle: new SignInThrottle(
      {
        maxFailures: deps.config.signInMaxFailures,
        maxFailuresPerAddress: deps.config.signInMaxFailuresPerAddress,
        windowSeconds: deps.config.signInWindowSeconds,
      },
      rateLimitStoreFor(deps.db),
    ),
    credentials: new ApiKeyCredentials(deps.db.knex, deps.logger, deps.config.apiKeyCacheMs, deps.config.apiKeyUsageFlushMs),
    startedAt: Date.now(),
  };
}
