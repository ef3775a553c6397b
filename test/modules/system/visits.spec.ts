import http from 'node:http';
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { eventually } from '../../helpers/eventually.ts';
import { startFakePeer } from '../../helpers/fakePeer.ts';
import { visitBuckets, visitServices } from '../../../server/modules/system/visits.ts';

/**
 * Visit counters (issue 11, spec §2.3, §4.4, §8.2 item 2): POST /api/system/visit-notification counts a day and
 * an ISO-week bucket (VENUE_TIMEZONE) and stores nothing about the visitor; GET /api/system/visit-notification/stats
 * reads the counters.
 */

/** A webhook receiver that records posts; with `hold`, it answers only when released. */
async function startWebhook(options: { hold?: boolean } = {}) {
  const held: Array<() => void> = [];
  const peer = await startFakePeer<any>({
    record: (req) => JSON.parse(req.text),
    answer(_req, res) {
      const answer = () => res.writeHead(200).end('ok');
      if (options.hold) held.push(answer);
      else answer();
    },
  });
  return {
    url: `${peer.base}/hook`,
    posts: peer.requests,
    release: () => held.splice(0).forEach((answer) => answer()),
    close: peer.close,
  };
}

/** POSTs `body` as JSON through `agent` (a bounded keep-alive pool: 2,000 sockets at once overflow the listen backlog). */
function postJson(baseUrl: string, path: string, body: unknown, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = http.request(`${baseUrl}${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(data);
  });
}

async function counters(server: TestServer) {
  const rows = await server.db.knex('visit_counters').select('bucket_type', 'bucket_key', 'visit_count');
  return Object.fromEntries(rows.map((r: { bucket_type: string; bucket_key: string; visit_count: string }) => [`${r.bucket_type} ${r.bucket_key}`, Number(r.visit_count)]));
}

describe('system: visit counters', () => {
  it('names the local day and the ISO week in the venue time zone', () => {
    // 17:30 UTC on 31 December 2026 is 00:30 on 1 January 2027 in Ho Chi Minh City; that Friday is in 2026-W53.
    expect(visitBuckets(new Date('2026-12-31T17:30:00Z'), 'Asia/Ho_Chi_Minh')).to.deep.equal({ day: '2027-01-01', week: '2026-W53' });
    expect(visitBuckets(new Date('2026-12-31T16:59:59Z'), 'Asia/Ho_Chi_Minh')).to.deep.equal({ day: '2026-12-31', week: '2026-W53' });
    expect(visitBuckets(new Date('2027-01-04T00:00:00Z'), 'Asia/Ho_Chi_Minh')).to.deep.equal({ day: '2027-01-04', week: '2027-W01' });
    expect(visitBuckets(new Date('2026-11-23T10:00:00Z'), 'Asia/Ho_Chi_Minh')).to.deep.equal({ day: '2026-11-23', week: '2026-W48' });
  });

  describe('counting', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ config: { visitRateLimitPerMinute: 100_000 } });
    });
    after(() => server.close());

    it('counts a visit in the day and week buckets and reads them back, cacheable for a few seconds', async () => {
      const res = await server.request('POST', '/api/system/visit-notification', { body: { path: '/shows/saigon-nights', referrer: 'https://www.google.com/' } });
      expect(res.status).to.equal(202);
      expect(res.body).to.deep.equal(visitBuckets(new Date(), 'Asia/Ho_Chi_Minh'));
      expect(await counters(server)).to.deep.equal({ [`DAY ${res.body.day}`]: 1, [`WEEK ${res.body.week}`]: 1 });
      await server.request('POST', '/api/system/visit-notification', { body: { path: '/' } });
      const stats = await server.request('GET', '/api/system/visit-notification/stats');
      expect(stats.status).to.equal(200);
      expect(stats.headers.get('cache-control')).to.equal('public, max-age=5');
      expect(stats.body.timezone).to.equal('Asia/Ho_Chi_Minh');
      expect(stats.body.today).to.deep.equal({ key: res.body.day, count: 2 });
      expect(stats.body.thisWeek).to.deep.equal({ key: res.body.week, count: 2 });
      expect(stats.body.yesterday.count).to.equal(0);
      expect(stats.body.lastWeek.count).to.equal(0);
    });

    it('reads the previous day and week from their own buckets', async () => {
      const now = visitBuckets(new Date(), 'Asia/Ho_Chi_Minh');
      const stats0 = (await server.request('GET', '/api/system/visit-notification/stats')).body;
      await server.db.knex('visit_counters').insert([
        { bucket_type: 'DAY', bucket_key: stats0.yesterday.key, visit_count: 41 },
        { bucket_type: 'WEEK', bucket_key: stats0.lastWeek.key, visit_count: 977 },
      ]);
      const stats = (await server.request('GET', '/api/system/visit-notification/stats')).body;
      expect(stats.yesterday.count).to.equal(41);
      expect(stats.lastWeek.count).to.equal(977);
      expect(stats.today.key).to.equal(now.day);
    });

    it('refuses bad bodies with the failing field', async () => {
      const missing = await server.request('POST', '/api/system/visit-notification', { body: { referrer: 'x' } });
      expect(missing.status).to.equal(400);
      const long = await server.request('POST', '/api/system/visit-notification', { body: { path: `/${'a'.repeat(600)}` } });
      expect(long.status).to.equal(400);
      expect(long.body.errors[0].path).to.equal('body/path');
      const extra = await server.request('POST', '/api/system/visit-notification', { body: { path: '/', userAgent: 'x' } });
      expect(extra.status).to.equal(400);
      const relative = await server.request('POST', '/api/system/visit-notification', { body: { path: 'shows' } });
      expect(relative.status).to.equal(400);
    });

    it('loses none of 2,000 concurrent visits: the day and week counters are exactly 2,000 higher @db', async function () {
      this.timeout(180_000);
      const before = await counters(server);
      const buckets = visitBuckets(new Date(), 'Asia/Ho_Chi_Minh');
      const agent = new http.Agent({ keepAlive: true, maxSockets: 100 });
      const results = await Promise.all(Array.from({ length: 2000 }, (_, i) => postJson(server.baseUrl, '/api/system/visit-notification', { path: `/p/${i}` }, agent)));
      agent.destroy();
      expect(results.filter((s) => s !== 202)).to.deep.equal([]);
      const after = await counters(server);
      expect(after[`DAY ${buckets.day}`] - (before[`DAY ${buckets.day}`] ?? 0)).to.equal(2000);
      expect(after[`WEEK ${buckets.week}`] - (before[`WEEK ${buckets.week}`] ?? 0)).to.equal(2000);
    });
  });

  it('rate-limits visits per client address (429 with Retry-After)', async () => {
    const server = await startTestServer({ config: { visitRateLimitPerMinute: 3, trustProxy: true } });
    try {
      const visit = (ip: string) => server.request('POST', '/api/system/visit-notification', { body: { path: '/' }, headers: { 'x-forwarded-for': ip } });
      for (let i = 0; i < 3; i++) expect((await visit('198.51.100.7')).status).to.equal(202);
      const refused = await visit('198.51.100.7');
      expect(refused.status).to.equal(429);
      expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
      expect((await visit('198.51.100.8')).status).to.equal(202);
      const day = visitBuckets(new Date(), 'Asia/Ho_Chi_Minh').day;
      expect((await counters(server))[`DAY ${day}`]).to.equal(4);
    } finally {
      await server.close();
    }
  });

  it('notifies the webhook with the visitor details, and no table holds the address, agent, country, path or referrer', async () => {
    const hook = await startWebhook();
    const server = await startTestServer({ config: { visitNotificationWebhookUrl: hook.url, trustProxy: true } });
    try {
      const marks = { ip: '203.0.113.197', ua: 'QuokkaBrowser/9.9 (VisitMarker)', country: 'NZ', path: '/visit-marker-path-xyz', referrer: 'https://referrer-marker.example/zz' };
      const res = await server.request('POST', '/api/system/visit-notification', {
        body: { path: marks.path, referrer: marks.referrer },
        headers: { 'x-forwarded-for': marks.ip, 'user-agent': marks.ua, 'cf-ipcountry': marks.country },
      });
      expect(res.status).to.equal(202);
      await visitServices(server.app.context).notifier.idle();
      expect(hook.posts).to.have.length(1);
      const text: string = hook.posts[0].text;
      expect(hook.posts[0].content).to.equal(text);
      for (const value of [marks.ip, marks.ua, `(${marks.country})`, marks.path, marks.referrer]) expect(text).to.include(value);

      const knex = server.db.knex;
      const { rows: tables } = (await knex.raw(
        `select table_schema, table_name from information_schema.tables
          where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
      )) as { rows: Array<{ table_schema: string; table_name: string }> };
      expect(tables.map((t) => t.table_name)).to.include.members(['visit_counters', 'rate_limits']);
      const found: string[] = [];
      for (const { table_schema, table_name } of tables) {
        const { rows } = (await knex.raw(`select t::text as row from "${table_schema}"."${table_name}" t`)) as { rows: Array<{ row: string }> };
        for (const { row } of rows) {
          for (const value of [marks.ip, 'QuokkaBrowser', 'VisitMarker', marks.path, 'referrer-marker']) {
            if (row.includes(value)) found.push(`${table_schema}.${table_name}: ${value}`);
          }
        }
      }
      expect(found).to.deep.equal([]);
      expect(server.logs.map((l) => JSON.stringify(l)).filter((l) => l.includes('QuokkaBrowser') || l.includes('visit-marker-path'))).to.deep.equal([]);
    } finally {
      await server.close();
      await hook.close();
    }
  });

  it('sends notifications from memory, at most VISIT_NOTIFICATION_MAX_PENDING at once, dropping the rest; counting never waits for them', async () => {
    const hook = await startWebhook({ hold: true });
    const server = await startTestServer({ config: { visitNotificationWebhookUrl: hook.url, visitNotificationMaxPending: 2 } });
    try {
      for (let i = 0; i < 5; i++) expect((await server.request('POST', '/api/system/visit-notification', { body: { path: `/${i}` } })).status).to.equal(202);
      const { notifier } = visitServices(server.app.context);
      expect(notifier.dropped).to.equal(3);
      const day = visitBuckets(new Date(), 'Asia/Ho_Chi_Minh').day;
      expect((await counters(server))[`DAY ${day}`]).to.equal(5);
      await eventually(() => hook.posts.length >= 2, { intervalMs: 10, what: 'two notifications to reach the webhook' });
      hook.release();
      await notifier.idle();
      expect(notifier.sent).to.equal(2);
      expect(hook.posts).to.have.length(2);
    } finally {
      await server.close();
      await hook.close();
    }
  });
});
