import { expect } from 'chai';
import { errorPaths, sudo } from '../../helpers/accounts.ts';
import { buildApiKey, buildMemberSession, permissionMap } from '../../helpers/factories.ts';
import { silentEngine, withEngine } from '../../helpers/jobs.ts';
import { cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';
import { testQueue } from '../../jobs/helpers.ts';
import { eventually } from '../../helpers/eventually.ts';

describe('jobs: GET /api/sudo/jobs @db', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      jobs: {
        workers: true,
        pollingIntervalSeconds: 0.5,
        queues: [
          testQueue('test.ok', async () => undefined),
          testQueue('test.boom', async (data: { n: number }) => {
            throw new Error(`boom ${data.n}: ${'x'.repeat(300)}`);
          }),
        ],
      },
    });
  });
  after(() => server.close());

  it('lists every queue with counts by state, and the latest failures newest first', async () => {
    const empty = await sudo(server, 'GET', '/api/sudo/jobs');
    expect(empty.status).to.equal(200);
    expect(empty.body.queues.map((q: { name: string }) => q.name)).to.include.members(['test.ok', 'test.boom']);
    const { jobs } = server.app.context;
    await jobs.enqueue('test.ok', {});
    await jobs.enqueue('test.boom', { n: 1 });
    await jobs.enqueue('test.boom', { n: 2 });
    const res = await eventually(async () => {
      const answer = await sudo(server, 'GET', '/api/sudo/jobs');
      const queue = (name: string) => answer.body.queues.find((q: { name: string }) => q.name === name);
      const boomFailures = answer.body.failures.filter((f: { queue: string }) => f.queue === 'test.boom');
      const done = boomFailures.length === 2 && queue('test.boom').counts.failed === 2 && queue('test.ok').counts.completed === 1;
      return done ? answer : undefined;
    }, { timeoutMs: 15_000, what: 'two failures and one completion' });
    const boom = res.body.queues.find((q: { name: string }) => q.name === 'test.boom');
    expect(boom.counts).to.include({ failed: 2, created: 0, active: 0 });
    expect(Object.keys(boom.counts).sort()).to.deep.equal(['active', 'cancelled', 'completed', 'created', 'failed', 'retry']);
    const [latest] = res.body.failures.filter((f: { queue: string }) => f.queue === 'test.boom');
    expect(latest).to.include({ queue: 'test.boom', attempts: 1 });
    expect(latest.error).to.match(/^boom \d: x+$/);
    expect(new Date(latest.failedAt).getTime()).to.be.closeTo(Date.now(), 60_000);
    const one = await sudo(server, 'GET', '/api/sudo/jobs?failures=1');
    expect(one.body.failures).to.have.length(1);
    expect((await sudo(server, 'GET', '/api/sudo/jobs?failures=0')).body.failures).to.deep.equal([]);
  });

  it('rejects a failures count outside 0..100 with 400 naming it', async () => {
    const res = await sudo(server, 'GET', '/api/sudo/jobs?failures=101');
    expect(res.status).to.equal(400);
    expect(errorPaths(res)).to.include('query/failures');
  });

  it('is refused to an admin member session (403), to no credentials (401) and to an API key even with jobs:read (403)', async () => {
    const { token } = await buildMemberSession('admin');
    expect((await server.request('GET', '/api/sudo/jobs', { headers: cookieHeader(token) })).status).to.equal(403);
    expect((await server.request('GET', '/api/sudo/jobs')).status).to.equal(401);
    const { key } = await buildApiKey({ permissions: permissionMap('jobs:read') });
    const keyed = await server.request('GET', '/api/sudo/jobs', { headers: { 'x-api-key': key } });
    expect(keyed.status).to.equal(403);
    expect(keyed.body.code).to.equal('api_key_not_allowed');
  });

  it('answers 503 jobs_unavailable when the engine does not answer', async () => {
    await withEngine(server, silentEngine(), async (get) => {
      const res = await get('/api/sudo/jobs', { 'x-api-token': server.config.superuserApiTokens[0] });
      expect(res.status).to.equal(503);
      expect((await res.json()).code).to.equal('jobs_unavailable');
    });
  });
});
