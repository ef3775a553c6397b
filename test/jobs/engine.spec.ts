import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { loadConfig } from '../../server/platform/config.ts';
import { collectQueues, createJobEngine, type JobContext, type JobEngine } from '../../server/platform/jobs/index.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { resetData, testDatabase } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { deferred, testQueue } from './helpers.ts';
import { eventually } from '../helpers/eventually.ts';

/** Jobs of one queue in one state, read straight from pg-boss's table. */
async function jobsOf(server: TestServer, queue: string, state?: string): Promise<Array<{ id: string; state: string; data: any }>> {
  const query = server.db.knex('pgboss.job').where('name', queue).select('id', 'state', 'data');
  if (state) query.where('state', state);
  return query;
}

describe('jobs: the pg-boss engine in the app @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  const ran: Array<{ data: any; job: JobContext }> = [];
  const failing: number[] = [];
  let gate = deferred();
  const started: string[] = [];

  const queues = [
    testQueue<{ organizationId?: string; n?: number }>('test.outbox', async (data, job) => {
      // The handler sees what the enqueuing transaction wrote: the job was committed with it.
      const organization = data.organizationId ? await job.app!.db.knex('organizations').where('id', data.organizationId).first() : undefined;
      ran.push({ data: { ...data, organizationName: organization?.name }, job });
    }),
    testQueue('test.failing', async () => {
      failing.push(Date.now());
      throw new Error(`boom ${failing.length}`);
    }, { retryLimit: 2, retryDelay: 1, retryBackoff: true }),
    testQueue<{ n: number }>('test.gated', async (data) => {
      started.push(String(data.n));
      await gate.promise;
    }),
  ];

  before(async () => {
    server = await startTestServer({ jobs: { workers: true, queues, pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 } });
  });
  after(() => server?.close());

  it('puts the engine on the app context, started with workers', async () => {
    const jobs = server.app.context.jobs;
    expect(jobs.started).to.equal(true);
    expect(jobs.workers).to.equal(true);
    expect(await jobs.health()).to.deep.equal({ ok: true, started: true, workers: true });
  });

  it('enqueues nothing when the transaction rolls back, and the job with its row when it commits', async () => {
    const { knex } = server.db;
    const jobs = server.app.context.jobs;
    const slug = `outbox-${randomUUID().slice(0, 8)}`;
    let rolledBackJob: string | null = null;
    const failure = await knex
      .transaction(async (trx) => {
        const [row] = await trx('organizations').insert({ name: 'Rolled back', slug }).returning('id');
        rolledBackJob = await jobs.enqueue('test.outbox', { organizationId: row.id, n: 1 }, { trx });
        expect(rolledBackJob).to.be.a('string');
        throw new Error('abort');
      })
      .catch((err: Error) => err);
    expect(failure).to.be.instanceOf(Error);
    expect(await knex('pgboss.job').where('id', rolledBackJob!)).to.have.length(0);
    expect(await knex('organizations').where('slug', slug)).to.have.length(0);

    const committedJob = await knex.transaction(async (trx) => {
      const [row] = await trx('organizations').insert({ name: 'Committed', slug }).returning('id');
      return jobs.enqueue('test.outbox', { organizationId: row.id, n: 2 }, { trx });
    });
    const run = await eventually(() => ran.find((r) => r.job.id === committedJob), { timeoutMs: 10_000, what: 'the committed job to run' });
    expect(run.data).to.include({ n: 2, organizationName: 'Committed' });
    expect(run.job).to.include({ queue: 'test.outbox', attempt: 1, retryLimit: 0 });
    expect(run.job.app).to.equal(server.app.context);
    expect(ran.map((r) => r.data.n)).to.not.include(1);
    await eventually(async () => (await jobsOf(server, 'test.outbox', 'completed')).some((j) => j.id === committedJob), { timeoutMs: 5000, what: 'completed' });
  });

  it('runs a job enqueued outside a transaction, and keeps a later start for later', async () => {
    const now = await server.app.context.jobs.enqueue('test.outbox', { n: 3 });
    const later = await server.app.context.jobs.enqueue('test.outbox', { n: 4 }, { startAfter: 3600 });
    await eventually(() => ran.some((r) => r.job.id === now), { timeoutMs: 10_000, what: 'the job to run' });
    expect(ran.some((r) => r.job.id === later)).to.equal(false);
    expect((await jobsOf(server, 'test.outbox', 'created')).map((j) => j.id)).to.deep.equal([later]);
  });

  it('writes a row and its job in one statement (alongside): both, or neither when the write fails', async () => {
    const { knex } = server.db;
    const jobs = server.app.context.jobs;
    const id = randomUUID();
    const slug = `alongside-${id.slice(0, 8)}`;
    const jobId = await jobs.enqueue('test.outbox', { organizationId: id, n: 5 }, { alongside: knex('organizations').insert({ id, name: 'Alongside', slug }) });
    expect(jobId).to.be.a('string');
    const run = await eventually(() => ran.find((r) => r.job.id === jobId), { timeoutMs: 10_000, what: 'the job written alongside to run' });
    // The handler found the row: it was committed with the job.
    expect(run.data).to.include({ n: 5, organizationName: 'Alongside' });

    // The same slug again: the write fails (unique), and no job is left behind.
    const before = (await jobsOf(server, 'test.outbox')).length;
    const failure = await jobs.enqueue('test.outbox', { n: 6 }, { alongside: knex('organizations').insert({ name: 'Twice', slug }) }).catch((err: Error) => err);
    expect(String(failure)).to.match(/unique|duplicate/i);
    expect((await jobsOf(server, 'test.outbox')).length).to.equal(before);
    expect(ran.some((r) => r.data.n === 6)).to.equal(false);

    // Not inside a transaction (write first, then enqueue with trx), nor with a singleton key.
    const inTrx = await knex
      .transaction((trx) => jobs.enqueue('test.outbox', { n: 7 }, { trx, alongside: trx('organizations').insert({ name: 'No', slug: `${slug}-t` }) }))
      .catch((err: Error) => err);
    expect(String(inTrx)).to.match(/alongside a write/);
    const keyed = await jobs.enqueue('test.outbox', { n: 8 }, { singletonKey: 'k', alongside: knex('organizations').insert({ name: 'No', slug: `${slug}-k` }) }).catch((err: Error) => err);
    expect(String(keyed)).to.match(/alongside a write/);
    expect(await knex('organizations').whereIn('slug', [`${slug}-t`, `${slug}-k`])).to.have.length(0);
  });

  it('groups concurrent enqueues alongside writes into shared statements; a refused write fails only its own', async () => {
    const { knex } = server.db;
    const jobs = server.app.context.jobs;
    const tag = randomUUID().slice(0, 8);
    await knex('organizations').insert({ name: 'Taken', slug: `group-${tag}-taken` });
    const slugs = [0, 1, 2, 3, 4, 5].map((i) => (i === 3 ? `group-${tag}-taken` : `group-${tag}-${i}`));
    const ids = slugs.map(() => randomUUID());
    // Six at once: the first goes alone, the other five wait for it and go in one statement, which the taken slug
    // refuses; each of those five is then written alone.
    const settled = await Promise.allSettled(
      slugs.map((slug, i) => jobs.enqueue('test.outbox', { organizationId: ids[i], n: 100 + i }, { alongside: knex('organizations').insert({ id: ids[i], name: `Group ${i}`, slug }) })),
    );
    expect(settled.map((result) => result.status)).to.deep.equal(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const written = await knex('organizations').where('slug', 'like', `group-${tag}-%`).pluck('slug');
    expect(written.sort()).to.deep.equal([0, 1, 2, 4, 5].map((i) => `group-${tag}-${i}`).concat(`group-${tag}-taken`).sort());
    const jobIds = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const stored = await knex('pgboss.job').whereIn('id', jobIds as string[]).select('id', 'data');
    expect(stored.map((job: { data: { n: number } }) => job.data.n).sort()).to.deep.equal([100, 101, 102, 104, 105]);
    expect(await knex('pgboss.job').whereRaw(`data->>'n' = '103'`)).to.have.length(0);
    for (const id of jobIds) await eventually(() => ran.find((r) => r.job.id === id && r.data.organizationName), { timeoutMs: 10_000, what: 'each grouped job to run and find its row' });

    // All accepted: two statements, the first enqueue's and the other five's (a statement's jobs share its time).
    const group = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((i) => jobs.enqueue('test.outbox', { n: 200 + i }, { alongside: knex('organizations').insert({ name: `Grouped ${i}`, slug: `group-${tag}-b${i}` }) })),
    );
    const times = await knex('pgboss.job').whereIn('id', group as string[]).select('id', knex.raw('created_on::text as at'));
    const at = new Map(times.map((row: { id: string; at: string }) => [row.id, row.at]));
    expect(new Set(group.slice(1).map((id) => at.get(id!))).size).to.equal(1);
    expect(at.get(group[0]!)).not.to.equal(at.get(group[1]!));
  });

  it('refuses a queue nobody registered and a finished transaction', async () => {
    const jobs = server.app.context.jobs;
    let error = await jobs.enqueue('test.nobody', {}).catch((err: Error) => err);
    expect(String(error)).to.match(/Unknown job queue "test\.nobody"/);
    let finished: any;
    await server.db.knex.transaction(async (trx) => {
      finished = trx;
    });
    error = await jobs.enqueue('test.outbox', {}, { trx: finished }).catch((err: Error) => err);
    expect(String(error)).to.match(/transaction has ended/);
  });

  it('retries a failing handler with a growing delay, then marks the job failed and reports it', async function () {
    this.timeout(30_000);
    const id = await server.app.context.jobs.enqueue('test.failing', { what: 'fails' });
    await eventually(async () => (await jobsOf(server, 'test.failing', 'failed')).some((j) => j.id === id), { timeoutMs: 20_000, what: 'the job to fail for good' });
    // retryLimit 2: three runs. retryDelay 1 with backoff: the first retry waits 1–2 s, the second 2–4 s
    // (without backoff both would wait 1 s).
    expect(failing).to.have.length(3);
    const [first, second] = [failing[1] - failing[0], failing[2] - failing[1]];
    expect(first, 'first retry delay').to.be.at.least(950);
    expect(second, 'second retry delay').to.be.at.least(1950);

    const stats = await server.app.context.jobs.stats();
    const failure = stats.failures.find((f) => f.id === id);
    expect(failure).to.include({ queue: 'test.failing', error: 'boom 3', attempts: 3 });
    expect(Date.parse(failure!.failedAt)).to.be.closeTo(Date.now(), 10_000);
    expect(stats.queues.find((q) => q.name === 'test.failing')!.counts).to.include({ failed: 1, retry: 0, active: 0 });
  });

  it('stats() counts every state per queue', async () => {
    const jobs = server.app.context.jobs;
    gate = deferred();
    const ids = [await jobs.enqueue('test.gated', { n: 1 }), await jobs.enqueue('test.gated', { n: 2 }), await jobs.enqueue('test.gated', { n: 3 })];
    await eventually(() => started.length === 1, { timeoutMs: 10_000, what: 'the first gated job to start' });
    const cancelled = await jobs.enqueue('test.gated', { n: 4 }, { startAfter: 3600 });
    await server.db.knex('pgboss.job').where('id', cancelled!).update({ state: 'cancelled', completed_on: server.db.knex.fn.now() });

    const during = await jobs.stats();
    expect(during.queues.find((q) => q.name === 'test.gated')!.counts).to.deep.equal({ created: 2, retry: 0, active: 1, completed: 0, cancelled: 1, failed: 0 });
    gate.resolve();
    await eventually(async () => (await jobsOf(server, 'test.gated', 'completed')).length === 3, { timeoutMs: 10_000, what: 'the gated jobs to complete' });
    const after = await jobs.stats({ failures: 5 });
    expect(after.queues.find((q) => q.name === 'test.gated')!.counts).to.deep.equal({ created: 0, retry: 0, active: 0, completed: 3, cancelled: 1, failed: 0 });
    expect(started).to.deep.equal(['1', '2', '3']);
    expect(ids.every(Boolean)).to.equal(true);
    expect(after.failures.length).to.be.at.most(5);
  });
});

describe('jobs: engine lifecycle @db', function () {
  this.timeout(60_000);
  const config = { ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: process.env.DATABASE_URL };
  const logger = createLogger('silent');
  let engine: JobEngine | undefined;

  beforeEach(async () => resetData((await testDatabase()).knex));
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
  });

  it('test servers enqueue without running workers unless asked', async () => {
    const calls: unknown[] = [];
    const server = await startTestServer({ jobs: { queues: [testQueue('test.idle', async (data) => void calls.push(data))], pollingIntervalSeconds: 0.5 } });
    try {
      expect(server.app.context.jobs.workers).to.equal(false);
      const id = await server.app.context.jobs.enqueue('test.idle', { x: 1 });
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(calls).to.deep.equal([]);
      expect(await server.db.knex('pgboss.job').where({ id }).first()).to.include({ state: 'created' });
    } finally {
      await server.close();
    }
  });

  it('registers the queues collected from the modules, and updates changed settings on the next start', async () => {
    const a = testQueue('test.registry-a', async () => undefined, { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 });
    const b = testQueue('test.registry-b', async () => undefined, { policy: 'singleton' });
    expect(() => collectQueues([[a], [b, a]])).to.throw(/"test.registry-a" is declared by two modules/);
    const db = await testDatabase();
    engine = createJobEngine({ config, db, logger, queues: collectQueues([[a], [b]]) });
    await engine.start({ workers: false });
    const rows = await db.knex('pgboss.queue').whereIn('name', [a.name, b.name]).orderBy('name');
    // PostgreSQL stores the silence allowed (JOB_LOST_AFTER_SECONDS, 30 s, or a shorter expireInSeconds) plus the
    // sweep's grace (2 × 10 s): heartbeats renew it up to expireInSeconds (engine.ts, `expiryOf`).
    const stored = (declared: number) => (db.kind === 'postgres' ? Math.min(declared, 30) + 20 : declared);
    expect(rows.map((r) => [r.name, r.policy, r.retry_limit, r.retry_delay, r.retry_backoff, r.expire_seconds])).to.deep.equal([
      ['test.registry-a', 'standard', 3, 5, true, stored(60)],
      ['test.registry-b', 'singleton', 0, 0, false, stored(30)],
    ]);
    await engine.stop();

    engine = createJobEngine({ config, db, logger, queues: [{ ...a, retryLimit: 7 }] });
    await engine.start({ workers: false });
    expect(await db.knex('pgboss.queue').where('name', a.name).first()).to.include({ retry_limit: 7 });
  });

  it('with workersAfter, resolves with the queues declared and polls only once that settles (the server listening); a stop before then stops cleanly', async () => {
    const db = await testDatabase();
    const ran: unknown[] = [];
    const queue = testQueue<{ n: number }>('test.after-listen', async (data) => void ran.push(data.n));
    let listening!: () => void;
    engine = createJobEngine({ config, db, logger, pollingIntervalSeconds: 0.5, queues: [queue] });
    await engine.start({ workers: true, workersAfter: new Promise<void>((resolve) => (listening = resolve)) });
    expect(engine.started).to.equal(true);
    await engine.enqueue(queue.name, { n: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(ran, 'nothing runs before the trigger').to.deep.equal([]);
    listening();
    await eventually(() => ran.length === 1, { timeoutMs: 10_000, what: 'the job queued before the trigger' });
    expect(ran).to.deep.equal([1]);
    await engine.stop();

    // Stopped before its trigger: the trigger firing later starts nothing.
    const late = createJobEngine({ config, db, logger, pollingIntervalSeconds: 0.5, queues: [queue] });
    let fire!: () => void;
    await late.start({ workers: true, workersAfter: new Promise<void>((resolve) => (fire = resolve)) });
    await late.stop();
    await late.enqueue(queue.name, { n: 2 }).catch(() => undefined);
    fire();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(ran).to.deep.equal([1]);
  });

  it('a worker takes the next job at once after finishing one, and a new job without waiting for its poll', async () => {
    const db = await testDatabase();
    const ends: number[] = [];
    // Polling every 10 s: only the wake-ups (after enqueue, after each job) can run three jobs within 3 s.
    engine = createJobEngine({ config, db, logger, pollingIntervalSeconds: 10, queues: [testQueue('test.busy', async () => void ends.push(Date.now()))] });
    await engine.start({ workers: true });
    await new Promise((resolve) => setTimeout(resolve, 300)); // the first (empty) poll is over: the worker sleeps
    const t0 = Date.now();
    await db.knex.transaction(async (trx) => {
      for (let n = 0; n < 3; n++) await engine!.enqueue('test.busy', { n }, { trx });
    });
    await eventually(() => ends.length === 3, { timeoutMs: 3000, what: 'three jobs' });
    expect(Math.max(...ends) - t0).to.be.below(3000);
  });

  it('stop() waits for the job under way, and health() tells it is stopped', async () => {
    const db = await testDatabase();
    const release = deferred();
    const began = deferred();
    let finished = false;
    engine = createJobEngine({
      config,
      db,
      logger,
      pollingIntervalSeconds: 0.5,
      queues: [
        testQueue('test.slow', async () => {
          began.resolve();
          await release.promise;
          finished = true;
        }),
      ],
    });
    await engine.start({ workers: true });
    const id = await engine.enqueue('test.slow', {});
    await began.promise;
    const stopping = engine.stop();
    setTimeout(() => release.resolve(), 300);
    await stopping;
    expect(finished).to.equal(true);
    expect(await db.knex('pgboss.job').where({ id }).first()).to.include({ state: 'completed' });
    expect(await engine.health()).to.deep.include({ ok: false, started: false });
    expect(String(await engine.enqueue('test.slow', {}).catch((err) => err))).to.match(/not started/);
  });

  it('stop() is bounded: a job that does not finish in time is failed, to run again', async () => {
    const db = await testDatabase();
    const began = deferred();
    engine = createJobEngine({
      config,
      db,
      logger,
      pollingIntervalSeconds: 0.5,
      shutdownTimeoutMs: 1000,
      queues: [testQueue('test.stuck', async () => {
        began.resolve();
        await new Promise(() => undefined);
      }, { retryLimit: 1 })],
    });
    await engine.start({ workers: true });
    const id = await engine.enqueue('test.stuck', {});
    await began.promise;
    const t0 = Date.now();
    await engine.stop();
    expect(Date.now() - t0).to.be.below(4000);
    expect(await db.knex('pgboss.job').where({ id }).first()).to.include({ state: 'retry' });
  });

  it('on PostgreSQL a run longer than the silence allowed keeps its job by heartbeats (the job of a dead process: processes.spec.ts, test/process/recovery.spec.ts)', async function () {
    const db = await testDatabase();
    if (db.kind !== 'postgres') this.skip();
    const runs: number[] = [];
    // Silence allowed 3 s (a heartbeat and a sweep each second, 2 s of grace); the honest run takes 7 s.
    engine = createJobEngine({
      config,
      db,
      logger,
      pollingIntervalSeconds: 0.5,
      maintenanceIntervalSeconds: 1,
      lostAfterSeconds: 3,
      queues: [
        testQueue('test.long', async (_data, job) => {
          runs.push(job.attempt);
          await new Promise((resolve) => setTimeout(resolve, 7000));
        }, { retryLimit: 2, retryDelay: 1, expireInSeconds: 60 }),
      ],
    });
    await engine.start({ workers: true });
    const id = await engine.enqueue('test.long', {});
    const row = await eventually(() => db.knex('pgboss.job').where({ id }).first(), { until: (r) => r?.state === 'completed', timeoutMs: 20_000 });
    // Neither the engine's sweep nor pg-boss (its maintenance, its time-out of the handler) took the run for lost.
    expect(runs).to.deep.equal([1]);
    expect(row.retry_count).to.equal(0);
  });
});

describe('jobs: pg-boss through its public API', () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const sources = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      return entry.isDirectory() ? sources(file) : /\.tsx?$/.test(entry.name) ? [file] : [];
    });

  it('no server file imports or requires a private file of pg-boss (only the package itself)', () => {
    const deep = sources(path.join(root, 'server')).flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\(\s*|require\(\s*)['"](pg-boss\/[^'"]+)['"]/g)].map((m) => `${path.relative(root, file)}: ${m[1]}`),
    );
    expect(deep).to.deep.equal([]);
  });

  it('pins the pg-boss version whose job table the engine writes directly (docs/operations.md, "Background jobs")', () => {
    // The engine reads and writes pg-boss's tables where its API has no call: the heartbeat and the lost-job sweep
    // (pgboss.job's state, expire_in, started_on, retry_count, retry_limit, start_after, output), the embedded
    // database's orphans, stats() and health() (pgboss.job, pgboss.version), and `alongside` (pg-boss's multi-job
    // insert starts with WITH). An upgrade may change any of them without a type error: read those statements in
    // server/platform/jobs/engine.ts against the new version's plans.js, run test/jobs/ on both databases, then
    // move this pin.
    const { version } = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/pg-boss/package.json'), 'utf8')) as { version: string };
    expect(version, 'pg-boss was upgraded: check the engine\'s direct SQL first (see this test)').to.equal('10.4.2');
  });
});
