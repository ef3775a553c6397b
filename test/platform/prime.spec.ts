import { expect } from 'chai';
import type { Knex } from 'knex';
import { Model } from 'objection';
import { ConfigError, loadConfig } from '../../server/platform/config.ts';
import { openDatabase } from '../../server/platform/db/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { bookableEvent, contact } from '../modules/booking/factories.ts';

/** Every table's row count (the app's schema and the job engine's), by name. */
async function rowCounts(knex: Knex): Promise<Record<string, number>> {
  const { rows } = await knex.raw<{ rows: Array<{ schema: string; name: string }> }>(
    `select table_schema as schema, table_name as name from information_schema.tables
      where table_schema in ('public', 'pgboss') and table_type = 'BASE TABLE' order by 1, 2`,
  );
  const counts: Record<string, number> = {};
  for (const { schema, name } of rows) {
    const [{ n }] = await knex.raw(`select count(*)::integer as n from "${schema}"."${name}"`).then((r: { rows: Array<{ n: number }> }) => r.rows);
    counts[`${schema}.${name}`] = n;
  }
  return counts;
}

describe('App.prime: cold is warm (issue 37 §1) @db', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({ config: { trustProxy: true } });
  });
  afterEach(() => server.close());

  it('walks the hot operations through the chain and runs a hold rolled back, writing no row anywhere', async () => {
    const { event, offer } = await bookableEvent({ capacity: 40 });
    const before = await rowCounts(server.db.knex);
    const seatsBefore = await server.request<any>('GET', `/api/public/show-events/${event.slug}`);
    const report = await server.app.prime();
    expect(await rowCounts(server.db.knex)).to.deep.equal(before);
    expect(report.connections).to.be.at.least(1);
    expect(report.operations).to.be.at.least(8);
    // Reads answered, refusals refused (holds and a quote without a valid body, a checkout without its token): never a 5xx.
    expect(Object.keys(report.statuses).filter((status) => Number(status) >= 500)).to.deep.equal([]);
    expect(report.statuses).to.include.keys('200', '400');
    // Each request walked twice one at a time and, on PostgreSQL, once more as a crowd of PRIME_BURST at once.
    const answers = Object.values(report.statuses).reduce((sum, n) => sum + n, 0);
    expect(report.burst).to.equal(server.db.kind === 'postgres' ? 200 : 0);
    expect(answers).to.equal(report.requests * (2 + report.burst));
    // The event's seats are as they were, and a guest's hold after priming is an ordinary hold.
    const seatsAfter = await server.request<any>('GET', `/api/public/show-events/${event.slug}`);
    expect(seatsAfter.body).to.deep.equal(seatsBefore.body);
    const hold = await server.request<any>('POST', '/api/public/reservations', {
      body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: contact() },
      headers: { 'x-forwarded-for': '10.37.0.1' },
    });
    expect(hold.status).to.equal(201);
    const [{ count }] = await server.db.knex('reservations').where('show_event_id', event.id).count<{ count: string }[]>('* as count');
    expect(Number(count)).to.equal(1);
  });

  it('runs the rolled-back hold on every connection of the pool at once: each PostgreSQL backend has caches of its own', async () => {
    await bookableEvent({ capacity: 40 });
    const connections = new Set<string>();
    const seen = (query: { sql: string; __knexUid?: string; __knexTxId?: string }) => {
      if (query.__knexTxId && query.__knexUid && /\binsert into "?reservations"?/i.test(query.sql)) connections.add(query.__knexUid);
    };
    server.db.knex.on('query', seen);
    try {
      await server.app.prime();
    } finally {
      server.db.knex.off('query', seen);
    }
    expect(connections.size).to.equal(server.db.kind === 'postgres' ? 10 : 1);
  });

  it('runs the hold’s statements on the next bookable event: a refusal there (sold out) is primed too, not a failure', async () => {
    const { event, offer } = await bookableEvent({ capacity: 1 });
    const last = await server.request<any>('POST', '/api/public/reservations', {
      body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 1, contact: contact() },
      headers: { 'x-forwarded-for': '10.37.0.2' },
    });
    expect(last.status).to.equal(201);
    const before = await rowCounts(server.db.knex);
    const report = await server.app.prime();
    expect(await rowCounts(server.db.knex)).to.deep.equal(before);
    expect(Object.keys(report.statuses).filter((status) => Number(status) >= 500)).to.deep.equal([]);
  });

  it('on a database without events it primes the chain alone', async () => {
    const before = await rowCounts(server.db.knex);
    const report = await server.app.prime();
    expect(await rowCounts(server.db.knex)).to.deep.equal(before);
    expect(report.requests).to.be.at.least(6);
  });

  it('a worker (chain: false) only opens the pool’s connections', async () => {
    const report = await server.app.prime({ chain: false });
    expect(report).to.include({ operations: 0, requests: 0, burst: 0 });
    expect(report.connections).to.equal(server.db.kind === 'postgres' ? 10 : 1);
  });

  it('DATABASE_POOL_MIN: how many of the connections priming opens stay open however idle (0–10, default 0)', async () => {
    expect(loadConfig({}).databasePoolMin).to.equal(0);
    expect(loadConfig({ DATABASE_POOL_MIN: '10' }).databasePoolMin).to.equal(10);
    expect(() => loadConfig({ DATABASE_POOL_MIN: '11' })).to.throw(ConfigError, /DATABASE_POOL_MIN/);
    // No connection is made until one is asked for: the pool's floor is only configured here.
    const db = openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none', poolMin: 10 });
    try {
      expect((db.knex.client as { pool: { min: number; max: number } }).pool).to.include({ min: 10, max: 10 });
    } finally {
      await db.close();
      // openDatabase binds the models to the knex it makes: back to the run's database.
      Model.knex(server.db.knex);
    }
  });
});
