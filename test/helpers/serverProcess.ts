import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from './eventually.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The real server in a process of its own, as an operator runs it (`node --import tsx server/main.ts`, what
 * `npm start` execs), for tests about processes: roles, several processes on one database, a process killed, a
 * database restarted under it. It listens on 127.0.0.1 on an ephemeral port (read back from its `listening` log
 * line) and is ready when `GET /api/system/health/ready` answers 200. Every output line is kept (`lines`), and the
 * JSON ones parsed on demand (`logs()`); `output()` gives them all for an assertion's message.
 */
export interface ServerProcess {
  name: string;
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  lines: string[];
  /** The JSON log lines (pino), parsed. */
  logs(): Array<Record<string, any>>;
  /** Every line, prefixed with the process's name. */
  output(): string;
  /** Resolves with the exit code (null when ended by a signal). */
  exited: Promise<number | null>;
  /** SIGTERM (a graceful stop), then the exit code; SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<number | null>;
  /** SIGKILL: the process dies at once, as in a crash. */
  kill(): Promise<void>;
  /** GET a path, with a time-out; never throws (status 0 when nothing answered). */
  probe(pathname: string, timeoutMs?: number): Promise<number>;
}

export interface ServerProcessOptions {
  /** Shown in `output()`. */
  name?: string;
  /** On top of the test process's environment with the variables below; `undefined` removes a variable. */
  env: Record<string, string | undefined>;
  /** Wait for readiness 200 (default true); false: only for the `listening` line. */
  ready?: boolean;
  timeoutMs?: number;
}

/** Variables of the test process that must not leak into a server's (they would change what it does). */
const DROPPED = ['SUPERUSER_API_TOKEN', 'NODE_ENV', 'MOCHA_WORKER_ID', 'VENUE_TEST_SHARED_DATABASE_URL'];

export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const name = options.name ?? 'server';
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of DROPPED) delete env[key];
  for (const key of Object.keys(env)) if (/^npm_/i.test(key)) delete env[key];
  Object.assign(env, { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', SEED_ON_START: 'false' });
  for (const [key, value] of Object.entries(options.env)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    let buffer = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buffer += chunk;
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      lines.push(...parts);
    });
    stream.on('end', () => buffer && lines.push(buffer));
  }
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));

  const logs = () =>
    lines.flatMap((line) => {
      if (!line.startsWith('{')) return [];
      try {
        return [JSON.parse(line) as Record<string, any>];
      } catch {
        return [];
      }
    });
  const output = () => lines.map((line) => `[${name}] ${line}`).join('\n');
  const server: ServerProcess = {
    name,
    child,
    baseUrl: '',
    lines,
    logs,
    output,
    exited,
    async stop(timeoutMs = 20_000) {
      if (gone) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
    async kill() {
      if (gone) return;
      child.kill('SIGKILL');
      await exited;
    },
    async probe(pathname, timeoutMs = 2000) {
      try {
        const res = await fetch(server.baseUrl + pathname, { signal: AbortSignal.timeout(timeoutMs) });
        await res.arrayBuffer();
        return res.status;
      } catch {
        return 0;
      }
    },
  };
  // Generous: a start on a loaded 2-core machine (tsx, the contract's validators) has taken over 30 s.
  const timeoutMs = options.timeoutMs ?? 180_000;
  try {
    const listening = await eventually(
      () => {
        if (gone) throw new Error(`${name} exited before listening:\n${output()}`);
        return logs().find((line) => line.msg === 'listening');
      },
      { timeoutMs, what: () => `${name} to listen:\n${output()}` },
    );
    server.baseUrl = `http://127.0.0.1:${new URL(listening.baseUrl).port}`;
    if (options.ready !== false) {
      await eventually(async () => (await server.probe('/api/system/health/ready')) === 200, {
        until: (ok) => ok,
        timeoutMs,
        what: () => `${name} to be ready:\n${output()}`,
      });
    }
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return server;
}
