import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL server of a test's own: `initdb` into a temporary directory, `pg_ctl` on a free loopback port with its
 * socket in that directory, trust authentication for `postgres`. For tests that stop or restart the database under
 * the app; the shared server (5432) is never touched. As root the binaries run as the `postgres` user (PostgreSQL
 * refuses root), the directory owned by it. `find()` answers undefined when no PostgreSQL binaries are installed
 * (the spec then skips).
 */
export interface PrivatePostgres {
  port: number;
  dir: string;
  /** `postgres://postgres@127.0.0.1:<port>/<database>` */
  url(database?: string): string;
  start(): void;
  /** `pg_ctl stop -m fast`: sessions are ended, the server stops. */
  stop(): void;
  restart(): void;
  /** The server's own log. */
  log(): string;
  /** Stops it (immediate) and removes the directory. */
  destroy(): void;
}

/** The newest installed PostgreSQL's bin directory holding initdb and pg_ctl. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (fs.existsSync(path.join(bin, 'initdb')) && fs.existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  return undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startPrivatePostgres(bin: string): Promise<PrivatePostgres> {
  const root = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-pg-'));
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  if (root) execFileSync('chown', ['postgres:postgres', dir]);
  // As root: run as postgres (`runuser`, util-linux); otherwise as ourselves.
  const run = (tool: string, args: string[]) =>
    root
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { stdio: 'pipe', timeout: 120_000 })
      : execFileSync(path.join(bin, tool), args, { stdio: 'pipe', timeout: 120_000 });
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const pg: PrivatePostgres = {
    port,
    dir,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: () => void run('pg_ctl', ['start', '-D', data, '-o', options, '-l', logFile, '-w', '-t', '60']),
    stop: () => void run('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w', '-t', '60']),
    restart: () => void run('pg_ctl', ['restart', '-D', data, '-o', options, '-m', 'fast', '-w', '-t', '60']),
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
    destroy() {
      try {
        run('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '30']);
      } catch {
        // not running
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    pg.start();
  } catch (err) {
    pg.destroy();
    throw err;
  }
  return pg;
}
