/**
 * Bench row S1 (issue 25 §1, `BENCH_ONLY=S1`): a warm `npm start` on the embedded database, from the process's
 * spawn to its first 200 from GET /api/system/health/ready, against the floor measured in the same run: a Node
 * process that imports PGlite, opens the same data directory and answers HTTP (what no start can do without).
 * Target: ≤ 2× the floor. The first start on a fresh data directory (migrations, the job schema, the seed's accounts
 * after it) is printed too (target < 5 s, the issue's; a figure, not part of the ratio).
 *
 * The app is started as `npm start` starts it (`node server/start.js`: from the build when it is current, see
 * server/cli/build.ts; the row says which), with npm's own launch left out of both sides. Each round starts the app
 * and the floor once, in alternating order, each stopped (SIGTERM) and gone before the next starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const READY_PATH = '/api/system/health/ready';

/** The floor: Node starts, imports PGlite, opens `<DATA_DIR>/pgdata` (the app's), answers every request 200. */
const FLOOR_SCRIPT = `
import http from 'node:http';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
const db = new PGlite(path.join(process.env.DATA_DIR, 'pgdata'));
await db.query('select 1');
const server = http.createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end('{"status":"ready"}'); });
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(async () => { await db.close(); process.exit(0); }));
`;

/** A port the OS says is free now (bound to 0 and released): a guessed one may be taken by another process. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

interface Started {
  ms: number;
  child: ChildProcess;
  /** What the process printed so far (its last 20,000 characters). */
  output(): string;
}

/** Spawns `args` and polls readiness every 5 ms; resolves with the time from spawn to the first 200. */
async function startAndWait(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 240_000): Promise<Started> {
  const port = await freePort();
  let output = '';
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr!.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`S1: ${args.join(' ')} exited before it was ready:\n${output}`);
    if (performance.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`S1: ${args.join(' ')} not ready in ${timeoutMs} ms:\n${output}`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}${READY_PATH}`);
      await response.arrayBuffer();
      if (response.status === 200) return { ms: performance.now() - started, child, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Whether `npm start` will run from the build (the launcher's own check, read from its manifest). */
function startsFromBuild(): boolean {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, '.build/manifest.json'), 'utf8')) as { files: Array<{ path: string; size: number; mtimeMs: number }> };
    return manifest.files.every((file) => {
      const stat = fs.statSync(path.join(ROOT, file.path));
      return stat.size === file.size && stat.mtimeMs === file.mtimeMs;
    });
  } catch {
    return false;
  }
}

export async function startupRow(rounds: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-bench-start-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  for (const name of ['DATABASE_URL', 'NODE_ENV', 'SUPERUSER_API_TOKENS', 'SUPERUSER_API_TOKEN', 'VALIDATE_RESPONSES', 'BENCH_HOLDS']) delete env[name];
  const fromBuild = startsFromBuild();
  const app = ['server/start.js'];
  const floor = ['--input-type=module', '-e', FLOOR_SCRIPT];
  try {
    // The first start: a fresh data directory (initdb, migrations, the job schema); then seeded before it is stopped.
    const first = await startAndWait(app, env);
    // Let the seed finish (it runs after readiness), so the warm starts find the venue as an operator's would.
    await waitForSeed(first);
    await stop(first.child);
    const samples: Array<{ app: number; floor: number }> = [];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? (['floor', 'app'] as const) : (['app', 'floor'] as const);
      const sample = { app: 0, floor: 0 };
      for (const side of order) {
        const started = await startAndWait(side === 'app' ? app : floor, env);
        sample[side] = started.ms;
        await stop(started.child);
      }
      samples.push(sample);
      console.log(`bench: S1 round ${round + 1}/${rounds}: app ${sample.app.toFixed(0)} ms, floor ${sample.floor.toFixed(0)} ms`);
    }
    const value = median(samples.map((s) => s.app / s.floor));
    const result = {
      from: fromBuild ? 'build' : 'sources',
      firstStartMs: Math.round(first.ms),
      warmStartMs: Math.round(median(samples.map((s) => s.app))),
      floorMs: Math.round(median(samples.map((s) => s.floor))),
      value,
      target: 2,
      pass: value <= 2,
      samples,
    };
    console.log(
      `S1  warm start to readiness / floor  ${value.toFixed(2)}  target ≤ 2.00  ${result.pass ? 'PASS' : 'MISS'}   (warm ${result.warmStartMs} ms vs floor ${result.floorMs} ms ` +
        `[Node + PGlite open on the same data directory]; first start ${result.firstStartMs} ms; from the ${result.from}${fromBuild ? '' : ': npm run build makes the build'})`,
    );
    return result;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Resolves when the first start has printed its seed summary (or has exited, or after 60 s). */
async function waitForSeed(started: Started): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (!/See it: curl/.test(started.output()) && started.child.exitCode === null && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
