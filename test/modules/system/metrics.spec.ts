import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ConfigError, loadConfig, type Config } from '../../../server/platform/config.ts';
import { startMetricsServer, type MetricsServer } from '../../../server/platform/observability/index.ts';
import { asSuperuser, startTestServer, type TestServer } from '../../helpers/server.ts';
import { sample } from '../../helpers/metrics.ts';
import { checkout, hold } from '../payments/helpers.ts';

/**
 * Prometheus metrics (issue 25 §5): `GET /metrics` on the API behind METRICS_TOKEN, or on a server of its own on
 * METRICS_PORT; off (404) with neither. After a guest's journey — hold, payment in the development sandbox,
 * confirmation, check-in at the door — the scrape shows the requests by operationId and status, the business
 * counters with their labels, the job queues and the database pool.
 */

const TOKEN = 'metrics-test-token-0123456789abcdef';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The metrics part of a configuration, as loadConfig derives it from these variables. */
function metricsConfig(env: Record<string, string>): Partial<Config> {
  const loaded = loadConfig({ NODE_ENV: 'test', ...env });
  return { metrics: loaded.metrics, accessTokens: { ...loaded.accessTokens } };
}

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

describe('system: Prometheus metrics @db', () => {
  describe('on the API behind METRICS_TOKEN', () => {
    let server: TestServer;
    before(async function () {
      // The run's first test database is migrated on first use: slow on a busy machine.
      this.timeout(120_000);
      server = await startTestServer({ config: { vnpaySandbox: true, publicApiUrlExplicit: false, ...metricsConfig({ METRICS_TOKEN: TOKEN }) } });
      await server.db.knex('commercial_setup').update({ payment_gateways: JSON.stringify(['VNPAY']) });
    });
    after(() => server.close());

    const scrape = async () => {
      const res = await server.request<string>('GET', '/metrics', { headers: bearer(TOKEN) });
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
      return res.body;
    };

    it('answers 401 invalid_metrics_token without the token or with another one (a superuser token included)', async () => {
      for (const headers of [{}, bearer(`${TOKEN}x`), asSuperuser, bearer('test-superuser-token-0123456789')]) {
        const res = await server.request<any>('GET', '/metrics', { headers });
        expect(res.status).to.equal(401);
        expect(res.body.code).to.equal('invalid_metrics_token');
        expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
      }
    });

    it('after a journey (hold → sandbox payment → confirmation → check-in) the counters moved, with their labels', async () => {
      const before = await scrape();
      const held = await hold(server, { who: 71 });
      const started = await checkout(server, held, { method: 'VNPAY', locale: 'en' });
      expect(started.status).to.equal(201);
      const paid = await server.request('POST', pathOf(started.body.vnpay.paymentUrl), { rawBody: 'outcome=pay', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(paid.status).to.equal(303);
      expect(await server.db.knex('reservations').where({ id: held.id }).first('status')).to.deep.equal({ status: 'CONFIRMED' });
      // The door serves today's events: the show starts now.
      await server.db.knex('show_events').where({ id: held.eventId }).update({ starts_at: new Date(), doors_at: new Date(Date.now() - 30 * 60_000) });
      const entry = await server.request<any>('POST', '/api/check-ins', { body: { reservationId: held.id, type: 'ENTRY', nonce: `n-${randomUUID()}` }, headers: asSuperuser });
      expect(entry.status).to.equal(200);
      expect(entry.body.checkIn.result).to.equal('ok');
      await server.request('GET', '/no/such/route', { unchecked: true });

      const after = await scrape();
      const moved = (name: string, labels: Record<string, string> = {}) => (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
      // Requests by operationId and status, never by raw path.
      expect(moved('venue_http_requests_total', { operation: 'createPublicReservation', status: '201' })).to.equal(1);
      expect(moved('venue_http_requests_total', { operation: 'startCheckout', status: '201' })).to.equal(1);
      expect(moved('venue_http_requests_total', { operation: 'redeemCheckIn', status: '200' })).to.equal(1);
      expect(moved('venue_http_request_duration_seconds_count', { operation: 'redeemCheckIn', status: '200' })).to.equal(1);
      expect(sample(after, 'venue_http_request_duration_seconds_bucket', { operation: 'redeemCheckIn', status: '200', le: '+Inf' })).to.be.at.least(1);
      expect(moved('venue_http_requests_total', { operation: 'unmatched', status: '404' })).to.equal(1);
      expect(after).not.to.contain('/no/such/route');
      // The 401s above were counted under their operation too.
      expect(sample(after, 'venue_http_requests_total', { operation: 'getMetrics', status: '401' })).to.be.at.least(4);
      // Business counters: the hold, the VNPay payment captured, the confirmation, the check-in.
      expect(moved('venue_holds_total', { by: 'guest' })).to.equal(1);
      expect(moved('venue_payments_total', { method: 'VNPAY', result: 'captured' })).to.equal(1);
      expect(moved('venue_confirmations_total')).to.equal(1);
      expect(moved('venue_check_ins_total')).to.equal(1);
      // The confirmation e-mail is in the ledger, queued (no workers run here), and its job waits in its queue.
      expect(moved('venue_emails', { template: 'reservation-confirmation', status: 'QUEUED' })).to.equal(1);
      expect(sample(after, 'venue_job_queue_depth', { queue: 'email.send' })).to.be.at.least(1);
      expect(sample(after, 'venue_job_queue_oldest_age_seconds', { queue: 'email.send' })).to.be.at.least(0);
      expect(sample(after, 'venue_job_failed', { queue: 'email.send' })).to.equal(0);
      // The database pool and the process.
      expect(sample(after, 'venue_db_pool_max')).to.be.at.least(1);
      expect(sample(after, 'venue_db_pool_connections', { state: 'used' })).to.be.a('number');
      expect(sample(after, 'process_cpu_user_seconds_total')).to.be.a('number');
    });

    it('counts a failed payment and a cancellation with their labels', async () => {
      const before = await scrape();
      const held = await hold(server, { who: 72 });
      const started = await checkout(server, held, { method: 'VNPAY' });
      await server.request('POST', pathOf(started.body.vnpay.paymentUrl), { rawBody: 'outcome=fail', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      const cancelled = await server.request('POST', `/api/public/reservations/${held.reference}/cancel`, { headers: { 'x-reservation-token': held.token }, body: {} });
      expect(cancelled.status, cancelled.text).to.be.oneOf([200, 204]);
      // A WhatsApp turn as the webhook stores it (the jobs answer it): read from its table at the scrape.
      await server.db.knex('chat_turns').insert({ source: 'whatsapp', channel: 'whatsapp', recipient: '84900000001', locale: 'en', status: 'QUEUED', guest_text: 'hello' });
      const after = await scrape();
      const moved = (name: string, labels: Record<string, string> = {}) => (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
      expect(moved('venue_chat_turns', { source: 'whatsapp', status: 'QUEUED' })).to.equal(1);
      expect(moved('venue_payments_total', { method: 'VNPAY', result: 'failed' })).to.equal(1);
      expect(moved('venue_cancellations_total', { by: 'GUEST' })).to.equal(1);
      expect(moved('venue_confirmations_total')).to.equal(0);
    });
  });

  describe('off, or on a port of their own', () => {
    it('is off by default: /metrics answers 404, nothing is counted, prom-client builds no registry', async () => {
      const server = await startTestServer();
      try {
        expect(server.app.context.metrics).to.equal(undefined);
        expect(server.app.context.venueMetrics).to.equal(undefined);
        for (const headers of [{}, bearer(TOKEN)]) {
          const res = await server.request<any>('GET', '/metrics', { headers });
          expect(res.status).to.equal(404);
          expect(res.body.code).to.equal('not_found');
        }
      } finally {
        await server.close();
      }
    });

    it('with METRICS_PORT the API has no /metrics (404) and the port serves them; METRICS_TOKEN then guards the port', async () => {
      const server = await startTestServer({ config: metricsConfig({ METRICS_PORT: '9464', METRICS_TOKEN: TOKEN }) });
      let open: MetricsServer | undefined;
      let guarded: MetricsServer | undefined;
      try {
        const api = await server.request<any>('GET', '/metrics', { headers: bearer(TOKEN) });
        expect(api.status).to.equal(404);
        expect((await server.request('GET', '/api/system/health/live')).status).to.equal(200);
        const metrics = server.app.context.metrics!;
        open = await startMetricsServer(metrics, { port: 0, host: '127.0.0.1', logger: server.app.context.logger });
        const text = await (await fetch(open.url)).text();
        expect(sample(text, 'venue_http_requests_total', { operation: 'getLiveness', status: '200' })).to.equal(1);
        expect(sample(text, 'venue_http_requests_total', { operation: 'getMetrics', status: '404' })).to.equal(1);
        expect((await fetch(open.url.replace('/metrics', '/other'))).status).to.equal(404);
        expect((await fetch(open.url, { method: 'POST' })).status).to.equal(405);

        guarded = await startMetricsServer(metrics, { port: 0, host: '127.0.0.1', token: TOKEN, logger: server.app.context.logger });
        expect((await fetch(guarded.url)).status).to.equal(401);
        expect((await fetch(guarded.url, { headers: bearer('wrong-token-0123456789') })).status).to.equal(401);
        const allowed = await fetch(guarded.url, { headers: bearer(TOKEN) });
        expect(allowed.status).to.equal(200);
        expect(await allowed.text()).to.contain('venue_http_requests_total');
      } finally {
        await open?.close();
        await guarded?.close();
        await server.close();
      }
    });

    it('reads its settings: off unless METRICS_TOKEN or METRICS_PORT; refuses a short token or the API port', () => {
      expect(loadConfig({}).metrics).to.deep.equal({ enabled: false, port: undefined, host: '127.0.0.1', token: undefined });
      expect(loadConfig({}).accessTokens['metrics-token']).to.equal(undefined);
      expect(loadConfig({ METRICS_TOKEN: TOKEN }).accessTokens['metrics-token']).to.equal(TOKEN);
      expect(loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: TOKEN })).to.deep.include({ metrics: { enabled: true, port: 9464, host: '127.0.0.1', token: TOKEN } });
      expect(loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: TOKEN }).accessTokens['metrics-token']).to.equal(undefined);
      expect(() => loadConfig({ METRICS_TOKEN: 'short' })).to.throw(ConfigError, /METRICS_TOKEN/);
      expect(() => loadConfig({ METRICS_PORT: '3000' })).to.throw(ConfigError, /METRICS_PORT/);
      expect(() => loadConfig({ METRICS_PORT: 'x' })).to.throw(ConfigError, /METRICS_PORT/);
    });
  });
});
