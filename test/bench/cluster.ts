/**
 * The rows that run the server as it is deployed (R3 "a sale", R4 "an evening"; issue 37): a fresh PostgreSQL
 * database made for the run (`createdb` on BENCH_PG_HOST:BENCH_PG_PORT as BENCH_PG_USER, 127.0.0.1:5432 postgres by
 * default; dropped afterwards unless BENCH_KEEP=1), processes started as `npm start` starts them (`node
 * server/start.js`) in their roles (PROCESS_ROLE `api` or `worker`), and in front of the API processes a small
 * balancer written here: round robin over keep-alive connections (an http.Agent with keepAlive per upstream), as
 * a proxy in front of the app keeps its connections to it (docs/operations.md).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './startup.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

export const percentile = (values: number[], p: number) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

const PG = {
  host: process.env.BENCH_PG_HOST ?? '127.0.0.1',
  port: process.env.BENCH_PG_PORT ?? '5432',
  user: process.env.BENCH_PG_USER ?? 'postgres',
};
const pgArgs = ['-h', PG.host, '-p', PG.port, '-U', PG.user];

/** Whether the PostgreSQL server answers (the rows are skipped when it does not). */
export function postgresAnswers(): boolean {
  try {
    execFileSync('pg_isready', ['-q', ...pgArgs.slice(0, 4)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A fresh database for one run; `drop()` removes it (and is a no-op with BENCH_KEEP=1). */
export function freshDatabase(prefix: string): { name: string; url: string; drop(): void } {
  const name = `${prefix}_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${process.pid}`;
  execFileSync('createdb', [...pgArgs, name], { stdio: ['ignore', 'ignore', 'inherit'] });
  return {
    name,
    url: `postgres://${PG.user}@${PG.host}:${PG.port}/${name}`,
    drop: () => {
      if (process.env.BENCH_KEEP === '1') return console.log(`bench: database ${name} kept (BENCH_KEEP=1)`);
      try {
        execFileSync('dropdb', [...pgArgs, '--if-exists', '--force', name], { stdio: 'ignore' });
      } catch {
        console.error(`bench: could not drop database ${name}`);
      }
    },
  };
}

export interface ServerProcess {
  role: 'api' | 'worker';
  port: number;
  child: ChildProcess;
  /** Resident memory now, MB (Linux /proc; NaN elsewhere). */
  rssMb(): number;
  /** CPU time used so far (user + system), ms (Linux /proc; NaN elsewhere). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/**
 * `node server/start.js` in `role` on `env` (merged over this process's), its stdout and stderr into
 * `<logDir>/<name>.log`; resolves once GET /api/system/health/ready answers 200.
 */
export async function startServer(name: string, role: 'api' | 'worker', env: NodeJS.ProcessEnv, logDir: string, timeoutMs = 120_000): Promise<ServerProcess> {
  const port = await freePort();
  const log = fs.openSync(path.join(logDir, `${name}.log`), 'a');
  const child = spawn(process.execPath, ['server/start.js'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PROCESS_ROLE: role, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const started = Date.now();
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));
  for (;;) {
    if (exited !== null) throw new Error(`${name} exited (code ${exited}) before it was ready; see ${path.join(logDir, `${name}.log`)}`);
    if (Date.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`${name} was not ready in ${timeoutMs / 1000} s`);
    }
    const ok = await fetch(`http://127.0.0.1:${port}/api/system/health/ready`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const status = (field: string) => {
    try {
      const line = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(field));
      return line ? Number(line.split(/\s+/)[1]) / 1024 : NaN;
    } catch {
      return NaN;
    }
  };
  const ticks = 100; // USER_HZ on Linux
  return {
    role,
    port,
    child,
    rssMb: () => status('VmRSS:'),
    cpuMs: () => {
      try {
        const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks;
      } catch {
        return NaN;
      }
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

export interface Balancer {
  port: number;
  url: string;
  /** Requests forwarded to each upstream, by port. */
  forwarded: Map<number, number>;
  /** Puts an upstream (a port on 127.0.0.1) into the rotation. */
  add(port: number): void;
  close(): Promise<void>;
}

/**
 * The balancer: each request to the next upstream in turn (round robin), over that upstream's keep-alive pool
 * (http.Agent keepAlive: as many connections as requests in flight, `keepIdle` of them kept open once idle, as
 * nginx's `keepalive` upstream cache), bodies and headers passed as they are; an
 * upstream that cannot be reached is a 502 here (counted by the rows as a 5xx). Started before the processes (a
 * worker's chat turns call the API through it: ASSISTANT_API_BASE_URL), which `add` puts in the rotation.
 */
export async function startBalancer(keepIdle = 64): Promise<Balancer> {
  const upstreams: number[] = [];
  const agents = new Map<number, http.Agent>();
  const forwarded = new Map<number, number>();
  let next = 0;
  const server = http.createServer((req, res) => {
    if (!upstreams.length) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('balancer: no upstream yet');
      return;
    }
    const port = upstreams[next++ % upstreams.length];
    forwarded.set(port, forwarded.get(port)! + 1);
    const upstream = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent: agents.get(port) },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`balancer: ${err.message}`);
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    forwarded,
    add: (upstream) => {
      upstreams.push(upstream);
      agents.set(upstream, new http.Agent({ keepAlive: true, maxFreeSockets: keepIdle }));
      forwarded.set(upstream, 0);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const agent of agents.values()) agent.destroy();
    },
  };
}

/**
 * The guests' side: keep-alive connections, as many as requests in flight (no guest waits in a queue of the load
 * generator's), 256 kept once idle (the load generator must not exhaust the ephemeral ports).
 */
export const clientAgent = new http.Agent({ keepAlive: true, maxFreeSockets: 256 });

export interface Answer {
  status: number;
  body: any;
  text: string;
  headers: http.IncomingHttpHeaders;
  ms: number;
}

/** One request through node:http (JSON or a form body), its answer read whole. */
export function call(baseUrl: string, method: string, pathAndQuery: string, options: { json?: unknown; form?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const body = options.json !== undefined ? Buffer.from(JSON.stringify(options.json)) : options.form !== undefined ? Buffer.from(options.form) : undefined;
  const url = new URL(pathAndQuery, baseUrl);
  const sent = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname + url.search,
        agent: clientAgent,
        headers: {
          ...(body ? { 'content-type': options.json !== undefined ? 'application/json' : 'application/x-www-form-urlencoded', 'content-length': body.length } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          if (/json/.test(String(res.headers['content-type'] ?? ''))) {
            try {
              parsed = JSON.parse(text);
            } catch {
              /* left as text */
            }
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, text, headers: res.headers, ms: performance.now() - sent });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A temporary folder for a row's logs and data directory. */
export const tempDir = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `venue-bench-${name}-`));

/** Stops what a cluster row started: the balancer, the processes, the bench's own connections, the database and folder. */
export async function stopCluster(parts: { balancer?: Balancer; servers: ServerProcess[]; knex: { destroy(): Promise<void> }; database: { drop(): void }; dir: string }): Promise<void> {
  await parts.balancer?.close();
  await Promise.all(parts.servers.map((s) => s.stop()));
  await parts.knex.destroy();
  parts.database.drop();
  if (process.env.BENCH_KEEP !== '1') fs.rmSync(parts.dir, { recursive: true, force: true });
}

/**
 * Runs `row` when `moduleUrl` is the script node was started with, exiting 1 when `failed` says so of its result
 * (or it threw).
 */
export function runWhenMain<T>(moduleUrl: string, row: () => Promise<T | undefined>, failed: (result: T) => boolean): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  row().then(
    (result) => process.exit(result !== undefined && failed(result) ? 1 : 0),
    (err) => {
      console.error(`bench failed: ${err instanceof Error ? err.stack : String(err)}`);
      process.exit(1);
    },
  );
}
