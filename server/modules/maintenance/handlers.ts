import { json, type OperationHandlers } from '../../platform/http/handler.ts';
import { resetDatabase } from './commands/resetDatabase.ts';
import { runMigrations } from './commands/runMigrations.ts';

/** Schema migrations and the destructive reset (spec §4.5), superuser tokens and owners only. */
export const handlers = {
  async runMigrations({ app, log }) {
    return json(200, await runMigrations(app, log));
  },

  async resetDatabase({ app, log, auth }) {
    const by = auth.identity.accountId ?? `superuser-token#${auth.identity.superuserTokenIndex}`;
    return json(200, await resetDatabase(app, by, log));
  },
} satisfies Partial<OperationHandlers>;
