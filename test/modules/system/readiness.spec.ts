import { expect } from 'chai';
import { silentEngine, withEngine } from '../../helpers/jobs.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

describe('system: readiness reports the job engine @db', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('includes the engine (started, workers) in its 200 body', async () => {
    const res = await server.request('GET', '/api/system/health/ready');
    expect(res.status).to.equal(200);
    expect(res.body.jobs).to.deep.equal({ started: true, workers: false });
  });

  it('answers 503 jobs_unavailable when the engine is started but does not answer', async () => {
    await withEngine(server, silentEngine(), async (get) => {
      const res = await get('/api/system/health/ready');
      expect(res.status).to.equal(503);
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect((await res.json()).code).to.equal('jobs_unavailable');
    });
  });

  it('stays ready, reporting started: false, when this process never started an engine', async () => {
    const jobs = { ...silentEngine(), started: false, workers: false, health: async () => ({ ok: false, started: false, workers: false, error: 'not started' }) };
    await withEngine(server, jobs, async (get) => {
      const res = await get('/api/system/health/ready');
      expect(res.status).to.equal(200);
      expect((await res.json()).jobs).to.deep.equal({ started: false, workers: false });
    });
  });
});
