import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Model } from 'objection';
import { openDatabase } from '../../server/platform/db/database.ts';
import { migrateLatest } from '../../server/platform/db/migrations.ts';
import { eventually } from './eventually.ts';
import { createScratchDatabase } from './scratchDatabase.ts';
import { startServerProcess as startProcess, type ServerProcess as Process } from './serverProcess.ts';

/**
 * API processes (`server/main.ts`, `PROCESS_ROLE=api`: no job workers) on a PostgreSQL database of their own, made
 * afresh beside `DATABASE_URL`'s and dropped at the end: what several processes behind a load balancer share. The
 * processes are ./serverProcess.ts's; the database is ./scratchDatabase.ts's, migrated once here so that the
 * processes find nothing to apply.
 */
export type ServerProcess = Process;

export async function freshDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const scratch = await createScratchDatabase(prefix);
  // openDatabase binds objection's models to the knex it opens: bound back to the run's database once done
  // (later specs in this worker would otherwise query through a closed pool).
  const previous = Model.knex();
  const db = openDatabase({ databaseUrl: scratch.url });
  try {
    await migrateLatest(db.knex);
  } finally {
    await db.close();
    Model.knex(previous);
  }
  return { url: scratch.url, drop: () => scratch.drop() };
}

/** One API process on `databaseUrl` (an ephemeral port, a data directory of its own; `env` added), ready. */
export async function startServerProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-process-'));
  const server = await startProcess({ env: { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PROCESS_ROLE: 'api', JOB_WORKERS: undefined, ...env } });
  const stop = server.stop.bind(server);
  server.stop = async (timeoutMs?: number) => {
    try {
      return await stop(timeoutMs);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };
  return server;
}

/**
 * Polls `check` (every 10 ms, through `eventually`) until it answers true or `limitMs` has passed; answers the
 * milliseconds it took, or undefined when it never did.
 */
export async function msUntil(check: () => Promise<boolean>, limitMs: number): Promise<number | undefined> {
  const start = performance.now();
  const done = await eventually(check, { until: (ok) => ok, timeoutMs: limitMs, intervalMs: 10, orLast: true });
  return done ? performance.now() - start : undefined;
}
