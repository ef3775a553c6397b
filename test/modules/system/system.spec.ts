import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import knexFactory from 'knex';
import { createApp } from '../../../server/app.ts';
import { createLogger } from '../../../server/platform/logger.ts';
import { startTestServer, asSuperuser, type TestServer } from '../../helpers/server.ts';

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

  it('answers liveness without the database and readiness with it @db', async () => {
    const live = await server.request('GET', '/api/system/health/live');
    expect(live.status).to.equal(200);
    expect(live.body.status).to.equal('live');
    const ready = await server.request('GET', '/api/system/health/ready');
    expect(ready.status).to.equal(200);
    expect(ready.body.database.kind).to.equal(process.env.DATABASE_URL ? 'postgres' : 'embedded');
  });

  it('answers readiness with 503 (and liveness with 200) when the database does not answer', async () => {
    // A database nobody listens on (port 1), built without binding the shared objection models to it.
    const knex = knexFactory({ client: 'pg', connection: 'postgres://nobody@127.0.0.1:1/none', pool: { min: 0, max: 1 }, acquireConnectionTimeout: 2000 });
    const app = createApp({ config: server.config, db: { knex, kind: 'postgres', close: () => knex.destroy() }, logger: createLogger('silent') });
    const down = http.createServer(app.koa.callback());
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
      const ready = await fetch(`${base}/api/system/health/ready`);
      expect(ready.status).to.equal(503);
      expect(ready.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect((await ready.json()).code).to.equal('database_unavailable');
      expect((await fetch(`${base}/api/system/health/live`)).status).to.equal(200);
    } finally {
      down.close();
      await app.close();
      await knex.destroy();
    }
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
