/**
 * One benchmark target, run by test/bench/run.ts in its own child process so the load generator never shares
 * this event loop. `app`: the real app, built as server/main.ts builds it (loadConfig from the environment,
 * the pino logger on stdout, the configured database, migrations), plus one API key created in the database.
 * `baseline`: a minimal Koa + @koa/router app serving the same liveness body. Both listen on 127.0.0.1 on an
 * ephemeral port and report it over IPC; stdout (the logs) is /dev/null, as the parent spawns us.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';

export type TargetKind = 'app' | 'baseline';

/** Child → parent. */
export type ChildMessage =
  | { type: 'ready'; port: number; apiKey?: string; database?: string }
  | { type: 'cpu'; id: number; user: number; system: number; apiKeyRequests?: number }
  | { type: 'error'; message: string };

/** Parent → child. */
export type ParentMessage = { type: 'cpu'; id: number } | { type: 'stop' };

const kind = process.argv[2] as TargetKind;
const send = (message: ChildMessage) => process.send?.(message);

async function listen(callback: http.RequestListener): Promise<http.Server> {
  const server = http.createServer(callback);
  server.keepAliveTimeout = 65_000; // as server/main.ts
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function baseline(): Promise<{ server: http.Server; extra: Partial<ChildMessage>; cleanup: () => Promise<void>; apiKeyRequests?: () => Promise<number> }> {
  const startedAt = Date.now();
  const version = process.env.npm_package_version ?? '0.1.0';
  const koa = new Koa();
  const router = new Router();
  router.get('/api/system/health/live', (ctx) => {
    ctx.body = { status: 'live', uptimeSeconds: (Date.now() - startedAt) / 1000, version };
  });
  koa.use(router.routes());
  return { server: await listen(koa.callback()), extra: {}, cleanup: async () => {} };
}

async function app() {
  const { createApp } = await import('../../server/app.ts');
  const { loadConfig } = await import('../../server/config.ts');
  const { openConfiguredDatabase } = await import('../../server/db/database.ts');
  const { migrateLatest } = await import('../../server/db/migrations.ts');
  const { createLogger } = await import('../../server/logger.ts');
  const { buildApiKey } = await import('../helpers/factories.ts');

  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = openConfiguredDatabase(config);
  await migrateLatest(db.knex);
  // A valid key (enabled, no expiry, owner holds SUPERUSER), written directly as the test factories do.
  const { key, apiKey, owner } = await buildApiKey({ name: 'bench key', permissions: { system: ['read'] } });
  const { koa } = createApp({ config, db, logger });
  const server = await listen(koa.callback());
  return {
    server,
    extra: { apiKey: key, database: db.kind },
    apiKeyRequests: async () => {
      const row = await db.knex('api_keys').where('id', apiKey.id).first('request_count');
      return Number(row?.request_count ?? 0);
    },
    cleanup: async () => {
      // On a real PostgreSQL database (DATABASE_URL), leave nothing behind.
      if (db.kind === 'postgres') {
        await db.knex('api_keys').where('id', apiKey.id).delete().catch(() => {});
        await db.knex('accounts').where('id', owner.id).delete().catch(() => {});
      }
      logger.flush();
      await db.close();
    },
  };
}

async function main(): Promise<void> {
  const target = kind === 'app' ? await app() : kind === 'baseline' ? await baseline() : undefined;
  if (!target) throw new Error(`unknown target "${kind}" (app | baseline)`);
  const { server, extra, cleanup } = target;
  const apiKeyRequests = 'apiKeyRequests' in target ? target.apiKeyRequests : undefined;

  process.on('message', async (message: ParentMessage) => {
    if (message.type === 'cpu') {
      const usage = process.cpuUsage();
      const count = apiKeyRequests ? await apiKeyRequests() : undefined;
      send({ type: 'cpu', id: message.id, user: usage.user, system: usage.system, apiKeyRequests: count });
    } else if (message.type === 'stop') {
      server.closeAllConnections();
      server.close();
      await cleanup().catch(() => {});
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0)); // parent gone: never linger
  send({ type: 'ready', port: (server.address() as AddressInfo).port, ...extra } as ChildMessage);
}

main().catch((err) => {
  send({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});
