import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../server/app.ts';
import type { JobEngine } from '../../server/platform/jobs/index.ts';
import { createLogger } from '../../server/platform/logger.ts';
import type { TestServer } from './server.ts';

/** The app over the test database with `jobs` as its engine, on an ephemeral port; `fetch(path)` against it. */
export async function withEngine(server: TestServer, jobs: JobEngine, run: (get: (path: string, headers?: Record<string, string>) => Promise<Response>) => Promise<void>) {
  const app = createApp({ config: server.config, db: server.db, logger: createLogger('silent'), jobs });
  const listener = http.createServer(app.koa.callback());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    await run((path, headers = {}) => fetch(base + path, { headers }));
  } finally {
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  }
}

/** An engine that was started but no longer answers (its database connection is gone, say). */
export const silentEngine = (): JobEngine => ({
  started: true,
  workers: true,
  start: async () => undefined,
  stop: async () => undefined,
  enqueue: async () => null,
  stats: () => Promise.reject(new Error('no answer in time')),
  health: async () => ({ ok: false, started: true, workers: true, error: 'no answer in time' }),
});

