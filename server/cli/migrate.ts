import { loadConfig } from '../platform/config.ts';
import { openConfiguredDatabase } from '../platform/db/database.ts';
import { migrateLatest } from '../platform/db/migrations.ts';

/** `npm run migrate`: apply pending migrations to the configured database. */
const config = loadConfig();
const db = openConfiguredDatabase(config);
try {
  const { applied, current } = await migrateLatest(db.knex);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
  console.log(`Current: ${current.join(', ')}`);
} finally {
  await db.close();
}
