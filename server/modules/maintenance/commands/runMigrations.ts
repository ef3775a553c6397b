import type { AppContext } from '../../../platform/context.ts';
import { migrateLatest } from '../../../platform/db/migrations.ts';
import type { Logger } from '../../../platform/logger.ts';

/**
 * Applies the pending schema migrations. No unit of work: the migrator runs each migration in a transaction of
 * its own (and takes its own lock).
 */
export async function runMigrations(app: Pick<AppContext, 'db'>, log: Logger) {
  const result = await migrateLatest(app.db.knex);
  log.info({ applied: result.applied }, 'migrations run');
  return result;
}
