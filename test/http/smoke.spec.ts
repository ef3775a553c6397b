import { expect } from 'chai';
import { startTestServer, asSuperuser, type TestServer } from '../helpers/server.ts';

describe('system', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('serves the contract at /openapi.yaml', async () => {
    const res = await server.request('GET', '/openapi.yaml');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/yaml/);
    expect(res.text).to.contain('operationId: getLiveness');
  });

  it('answers liveness without the database and readiness with it', async () => {
    const live = await server.request('GET', '/api/system/health/live');
    expect(live.status).to.equal(200);
    expect(live.body.status).to.equal('live');
    const ready = await server.request('GET', '/api/system/health/ready');
    expect(ready.status).to.equal(200);
    expect(ready.body.database.kind).to.equal(process.env.DATABASE_URL ? 'postgres' : 'embedded');
  });

  it('returns the request id as a header and in problems', async () => {
    const res = await server.request('GET', '/api/auth/me', { headers: { 'x-request-id': 'abc-123' } });
    expect(res.status).to.equal(401);
    expect(res.headers.get('x-request-id')).to.equal('abc-123');
    expect(res.body.requestId).to.equal('abc-123');
  });

  it('lets a superuser token list users', async () => {
    const res = await server.request('GET', '/api/sudo/users', { headers: asSuperuser });
    expect(res.status).to.equal(200);
    expect(res.body.total).to.equal(0);
  });
});
