import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../app.ts';
import { loadConfig } from '../platform/config.ts';
import { openConfiguredDatabase } from '../platform/db/database.ts';
import { migrateLatest } from '../platform/db/migrations.ts';
import { createJobEngine } from '../platform/jobs/index.ts';
import { QUEUES } from '../modules/index.ts';
import { createLogger } from '../platform/logger.ts';
import { prepareDevelopmentSecrets, recordSeededPassword } from './devSecrets.ts';
import { formatSeedResult, seed, SeedError, type SeedResult } from '../../seed/index.ts';

/**
 * `npm run seed`. With SERVER_URL it seeds that running server. Without it, it starts the app on a loopback
 * port against the configured database (stop a server using the same embedded DATA_DIR first), seeds
 * through HTTP, and stops.
 */
const dev = prepareDevelopmentSecrets(loadConfig());
const config = dev.config;
const token = config.superuserApiTokens[0];
if (!token) {
  console.error('Cannot seed: set SUPERUSER_API_TOKENS (or SUPERUSER_API_TOKEN).');
  process.exit(1);
}
const created: string[] = [];
const onCreated = (username: string) => {
  created.push(username);
  recordSeededPassword(dev, username);
};
const print = (result: SeedResult) => {
  for (const row of result.accounts) console.log(`account ${row.username}: ${row.account}, membership ${row.membership}`);
  console.log(formatSeedResult(result));
};
const onProgress = ({ resource, state }: { resource: string; state: string }) => {
  if (state === 'running') console.error(`seeding ${resource}…`);
};
try {
  if (process.env.SERVER_URL) {
    print(await seed({ baseUrl: process.env.SERVER_URL.replace(/\/$/, ''), superuserToken: token, passwords: dev.passwords, onCreated, onProgress }));
  } else {
    const db = openConfiguredDatabase(config);
    await migrateLatest(db.knex);
    const logger = createLogger('warn');
    const jobs = createJobEngine({ config, db, logger, queues: QUEUES });
    const app = createApp({ config, db, logger, jobs });
    // Enqueue only: what the seeding requests queue is worked by the server when it next runs.
    await jobs.start({ workers: false, app: app.context });
    const { koa } = app;
    const server = http.createServer(koa.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      print(await seed({ baseUrl: `http://127.0.0.1:${port}`, superuserToken: token, passwords: dev.passwords, onCreated, onProgress }));
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await jobs.stop();
      await app.close();
      await db.close();
    }
  }
  // Only passwords now set on an account are worth printing (and are recorded in the credentials file).
  for (const username of created) {
    const generated = dev.generatedPasswords[username as keyof typeof dev.generatedPasswords];
    if (generated) console.log(`generated password for ${username}: ${generated}`);
  }
  if (created.length && dev.file) console.log(`passwords of the created accounts recorded in ${dev.file}`);
} catch (err) {
  console.error(err instanceof SeedError ? `Cannot seed: ${err.message}` : err);
  process.exit(1);
}
