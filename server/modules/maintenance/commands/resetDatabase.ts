import type { AppContext } from '../../../platform/context.ts';
import { migrateLatest, rollbackAll } from '../../../platform/db/migrations.ts';
import { Forbidden } from '../../../platform/http/problem.ts';
import { CREDENTIALS_TOPIC } from '../../../platform/auth/apiKeyCredentials.ts';
import { CATALOG_TOPIC } from '../../catalog/index.ts';
import type { Logger } from '../../../platform/logger.ts';

/**
 * The destructive reset (spec §4.5): every migration rolled back, then applied again, and every process's API-key and catalog
 * caches dropped.
 * Refused in production unless ALLOW_DATABASE_RESET=true. No unit of work: the migrator runs each migration in a
 * transaction of its own.
 */
export async function resetDatabase(app: Pick<AppContext, 'db' | 'config' | 'notifications'>, by: string, log: Logger): Promise<{ rolledBack: string[]; applied: string[] }> {
  if (app.config.nodeEnv === 'production' && !app.config.allowDatabaseReset) {
    throw Forbidden('reset_refused', 'Resetting the database is refused in production unless ALLOW_DATABASE_RESET=true.');
  }
  log.warn({ by }, 'database reset');
  const rolledBack = await rollbackAll(app.db.knex);
  const { applied } = await migrateLatest(app.db.knex);
  // Every process forgets every remembered key.
  await app.notifications.publish(CREDENTIALS_TOPIC, {});
  await app.notifications.publish(CATALOG_TOPIC);
  return { rolledBack, applied };
}
