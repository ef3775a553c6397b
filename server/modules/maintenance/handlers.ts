import { migrateLatest, rollbackAll } from '../../platform/db/migrations.ts';
import { json, type OperationHandlers } from '../../platform/http/handler.ts';
import { Forbidden } from '../../platform/http/problem.ts';

/** Schema migrations and the destructive reset (spec §4.5), superuser tokens and owners only. */
export const handlers = {
  async runMigrations({ app, log }) {
    const result = await migrateLatest(app.db.knex);
    log.info({ applied: result.applied }, 'migrations run');
    return json(200, result);
  },

  async resetDatabase({ app, log, auth }) {
    if (app.config.nodeEnv === 'production' && !app.config.allowDatabaseReset) {
      throw Forbidden('reset_refused', 'Resetting the database is refused in production unless ALLOW_DATABASE_RESET=true.');
    }
    log.warn({ by: auth.identity.accountId ?? `superuser-token#${auth.identity.superuserTokenIndex}` }, 'database reset');
    const rolledBack = await rollbackAll(app.db.knex);
    const { applied } = await migrateLatest(app.db.knex);
    app.credentials.invalidate();
    return json(200, { rolledBack, applied });
  },
} satisfies Partial<OperationHandlers>;
