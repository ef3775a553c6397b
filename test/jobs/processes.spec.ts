import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { resetData, testDatabase } from '../helpers/database.ts';
import { eventually } from '../helpers/eventually.ts';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'worker.ts');

interface Child {
  process: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
}

/** The fixture worker in a process of its own, on the run's PostgreSQL database or an embedded one in `dataDir`. */
function startWorker(env: Record<string, string>, dataDir?: string): Child {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, LOG_LEVEL: process.env.JOBS_CHILD_LOG ?? 'silent' };
  if (dataDir) {
    delete childEnv.DATABASE_URL;
    childEnv.DATA_DIR = dataDir;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], { env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let buffer = '';
  child.stdout!.on('data', (chunk) => {
    buffer += chunk;
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    lines.push(...parts);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { process: child, lines, exited };
}

const line = (child: Child, pattern: RegExp) => () => child.lines.map((l) => pattern.exec(l)).find(Boolean);

describe('jobs: across processes @db', function () {
  this.timeout(120_000);
  const children: Child[] = [];
  const dirs: string[] = [];

  const start = (env: Record<string, string>, dataDir?: string) => {
    const child = startWorker(env, dataDir);
    children.push(child);
    return child;
  };

  before(async function () {
    if (process.env.DATABASE_URL) await resetData((await testDatabase()).knex);
  });
  after(() => {
    for (const child of children) if (child.process.exitCode === null) child.process.kill('SIGKILL');
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs a job again after the process running it was killed', async () => {
    // PGlite: an on-disk data directory the two processes use one after the other. PostgreSQL: the run's database.
    let dataDir: string | undefined;
    if (!process.env.DATABASE_URL) dirs.push((dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-jobs-'))));
    const queue = `test.crash-${process.pid}`;
    // Embedded: a long expiry, so only the start-up recovery can bring the job back in time. PostgreSQL: a short
    // one, since there expiry is the recovery (another process may legitimately hold active jobs).
    const expire = { EXPIRE_IN_SECONDS: dataDir ? '600' : '2' };

    const first = start({ QUEUE: queue, ENQUEUE: '1', HOLD: '1', ...expire }, dataDir);
    const started = await eventually(line(first, /^start 1 (\S+) (\d+)$/), { timeoutMs: 60_000, what: 'the job to start in the first process' });
    expect(started[2]).to.equal('1');
    first.process.kill('SIGKILL');
    expect(await first.exited).to.equal(null);

    const second = start({ QUEUE: queue, ...expire }, dataDir);
    // Embedded: failed at start-up as interrupted. PostgreSQL: failed by maintenance after expireInSeconds (2 s).
    const done = await eventually(line(second, /^done 1 (\S+) (\d+)$/), { timeoutMs: 30_000, what: 'the job to run again in the second process' });
    expect(done[1]).to.equal(started[1]);
    expect(done[2]).to.equal('2');
    second.process.kill('SIGTERM');
    expect(await second.exited).to.equal(0);
  });

  it('on PostgreSQL, two processes share a queue and every job is done exactly once', async function () {
    if (!process.env.DATABASE_URL) this.skip();
    const queue = `test.shared-${process.pid}`;
    const total = 40;
    const env = { QUEUE: queue, HANDLER_MS: '30', CONCURRENCY: '2' };
    const a = start(env);
    const b = start(env);
    await eventually(line(a, /^ready/), { timeoutMs: 60_000, what: 'worker a' });
    await eventually(line(b, /^ready/), { timeoutMs: 60_000, what: 'worker b' });
    const producer = start({ ...env, ENQUEUE: String(total), HOLD: '1', CONCURRENCY: '1' });
    // The producer also works the queue but never finishes a job; kill it once it has enqueued everything, so
    // its one held job is failed by expiry and retried by a or b.
    await eventually(() => producer.lines.filter((l) => l.startsWith('enqueued ')).length === total, { timeoutMs: 60_000, what: 'the jobs to be enqueued' });
    producer.process.kill('SIGKILL');

    const done = () => [...a.lines, ...b.lines].filter((l) => l.startsWith('done '));
    await eventually(() => new Set(done().map((l) => l.split(' ')[1])).size === total, { timeoutMs: 60_000, what: `all ${total} jobs done` });
    // Nothing runs twice: let the workers poll a little longer, then count.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const numbers = done().map((l) => Number(l.split(' ')[1]));
    const stolen = producer.lines.filter((l) => l.startsWith('start ')).map((l) => Number(l.split(' ')[1]));
    expect(numbers.sort((x, y) => x - y)).to.deep.equal(Array.from({ length: total }, (_, i) => i + 1));
    expect(a.lines.some((l) => l.startsWith('done ')), 'worker a did some').to.equal(true);
    expect(b.lines.some((l) => l.startsWith('done ')), 'worker b did some').to.equal(true);
    // Only the producer's held job (if it took one) ran a second time, on attempt 2.
    const retried = done().filter((l) => l.split(' ')[3] !== '1').map((l) => Number(l.split(' ')[1]));
    expect(retried).to.deep.equal(stolen);

    for (const child of [a, b]) child.process.kill('SIGTERM');
    expect(await Promise.all([a.exited, b.exited])).to.deep.equal([0, 0]);
  });
});
