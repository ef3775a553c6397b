import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/platform/db/database.ts';
import { migrateLatest } from '../../server/platform/db/migrations.ts';
import { eventually } from './eventually.ts';

/**
 * Server processes (`node --import tsx server/main.ts`) on a PostgreSQL database of their own, made afresh on the
 * server `DATABASE_URL` names and dropped at the end: what several processes behind a load balancer share.
 */

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** A fresh, migrated database beside DATABASE_URL's (same server); answers its URL and how to drop it. */
export async function freshDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(process.env.DATABASE_URL!);
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = openDatabase({ databaseUrl: base.toString() });
  try {
    await admin.knex.raw('create database ??', [name]);
  } finally {
    await admin.close();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  // Migrated once here, so the processes do not race to migrate at start.
  const db = openDatabase({ databaseUrl: url.toString() });
  try {
    await migrateLatest(db.knex);
  } finally {
    await db.close();
  }
  return {
    url: url.toString(),
    async drop() {
      const dropper = openDatabase({ databaseUrl: base.toString() });
      try {
        await dropper.knex.raw('drop database if exists ?? with (force)', [name]);
      } finally {
        await dropper.close();
      }
    },
  };
}

/** Starts one server process on `databaseUrl` (an ephemeral port; `env` added) and waits until it listens. */
export async function startServerProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-process-'));
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', JOB_WORKERS: 'false', ...env };
  for (const name of ['NODE_ENV', 'MOCHA_WORKER_ID', 'VENUE_TEST_SHARED_DATABASE_URL']) delete childEnv[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /Venue backend listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearInterval(timer);
        resolve(match[1]);
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`exited ${code} before listening:\n${output}`));
    });
  });
  return {
    baseUrl,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
