import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { startFakeMetaGraph, type FakeMetaGraph } from '../../helpers/fakeMetaGraph.ts';
import { eventually } from '../../helpers/eventually.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { buildUserData, normalizeName, normalizePhone, sha256 } from '../../../server/platform/integrations/metaCapi.ts';
import { deliverMetaEvent, META_SEND_QUEUE } from '../../../server/modules/analytics/meta.ts';
import { publishPaymentOutcome as runPaymentHooks } from '../../../server/modules/payments/hooks.ts';
import { showWithEvent } from './factories.ts';
import { buildCustomer } from '../customers/factories.ts';
import { buildReservation } from '../reservations/factories.ts';

/**
 * Meta Conversions API (issue 11): POST /api/analytics/meta/outbound-event (browser events), `Purchase` on a
 * successful payment and `Lead` on a lead capture (server events), one durable send per event against a local fake
 * Graph API, an audit row per attempt without user data, the payload deleted when done.
 */

// SHA-256 (hex) of the normalized values, computed outside this code base (Python's hashlib); the first is the
// example of Meta's own documentation (john_smith@gmail.com).
const VECTORS = {
  'john_smith@gmail.com': '62a14e44f765419d10fea99367361a727c12365e2520f32218d505ed9aa0f62f',
  'lan.nguyen@example.com': 'ed8cbc60e049db905be258b9a52122ca4355b81849f5ac6d52b27e0b5beaee47',
  '84901234567': 'f0a4b3a2d998485bc744a2e6fcb2dec760b843aba1f24a84edf4bf32c68e71d5',
  lan: '094a367b026246fb64649c4f868a45d8187821d16a973141436fd9cd2acfdb4a',
  'nguyễn': '828b95a54a436bf4427d64fd9afe64ecf25d6c78ffabc3b64026d0a59ae8ab75',
  'ext-42': 'bc5522bb25b5dc5a847d06a11f33dc5addb59d012d78660c780c7319cb85d1f1',
};

const PIXEL = '1234567890';
const TOKEN = 'EAAB-test-access-token';
const UA = 'Mozilla/5.0 (MetaSpec) QuokkaAgent/1.0';

const event = (overrides: Record<string, unknown> = {}) => ({
  eventName: 'InitiateCheckout',
  eventId: 'evt-0001',
  eventSourceUrl: 'https://venue.example/shows/saigon-nights',
  fbp: 'fb.1.1732345678901.1111111111',
  fbc: 'fb.1.1732345678901.AbCdEfClickId',
  userData: { email: ' Lan.Nguyen@Example.COM ', phone: '090 123 4567', firstName: ' LAN ', lastName: 'Nguyễn', externalId: ' ext-42 ' },
  customData: { value: 3_564_000, currency: 'VND', contentIds: ['saigon-nights-2026-12-05-1930'] },
  ...overrides,
});

const metaConfig = (graph: FakeMetaGraph, extra: Record<string, unknown> = {}) => ({
  metaPixelId: PIXEL,
  metaCapiAccessToken: TOKEN,
  metaTestEventCode: 'TEST4242',
  metaGraphApiUrl: graph.url,
  metaGraphApiVersion: 'v21.0',
  metaCapiTimeoutMs: 2000,
  trustProxy: true,
  ...extra,
});

async function outboxIds(knex: Knex): Promise<string[]> {
  return (await knex('meta_capi_outbox').orderBy('created_at').select('id')).map((r: { id: string }) => r.id);
}

async function audit(knex: Knex) {
  return knex('meta_capi_events').orderBy('id').select('*');
}

describe('analytics: Meta Conversions API', () => {
  describe('normalization and hashing', () => {
    it('hashes e-mail, phone, names and external id as Meta specifies (known vectors)', () => {
      expect(sha256('john_smith@gmail.com')).to.equal(VECTORS['john_smith@gmail.com']);
      const user = buildUserData(
        { email: ' Lan.Nguyen@Example.COM ', phone: '+84 90-123-4567', firstName: ' LAN ', lastName: 'Nguyễn', externalId: ' ext-42 ' },
        { ip: '203.0.113.9', userAgent: UA, fbp: 'fb.1.1.2', fbc: 'fb.1.1.c' },
      );
      expect(user).to.deep.equal({
        em: [VECTORS['lan.nguyen@example.com']],
        ph: [VECTORS['84901234567']],
        fn: [VECTORS.lan],
        ln: [VECTORS['nguyễn']],
        external_id: [VECTORS['ext-42']],
        client_ip_address: '203.0.113.9',
        client_user_agent: UA,
        fbp: 'fb.1.1.2',
        fbc: 'fb.1.1.c',
      });
      // Decomposed (NFD) input hashes like the composed form.
      expect(sha256(normalizeName('Nguye\u0302\u0303n'))).to.equal(VECTORS['nguyễn']);
      expect(normalizeName("O'Brien-Smith")).to.equal('obriensmith');
      expect(buildUserData({})).to.deep.equal({});
    });

    it('writes phones as digits with the country code, 84 when none is given', () => {
      for (const phone of ['+84 90 123 4567', '0084901234567', '090 123 4567', '(090) 123-4567', '901234567', '84901234567']) {
        expect(normalizePhone(phone), phone).to.equal('84901234567');
      }
      expect(normalizePhone('+1 (415) 555-0100')).to.equal('14155550100');
      expect(normalizePhone('0415 555 0100', '61')).to.equal('614155550100');
      expect(normalizePhone('n/a')).to.equal('');
    });
  });

  describe('with the integration configured', () => {
    let graph: FakeMetaGraph;
    let server: TestServer;
    const knex = () => server.db.knex;
    const job = (attempt: number) => ({ attempt, retryLimit: 4 });
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      server.request('POST', '/api/analytics/meta/outbound-event', { body, headers: { 'user-agent': UA, 'x-forwarded-for': '198.51.100.23', ...headers } });

    before(async () => {
      graph = await startFakeMetaGraph();
      server = await startTestServer({ config: metaConfig(graph) });
    });
    after(async () => {
      await server.close();
      await graph.close();
    });
    beforeEach(async () => {
      graph.reset();
      await knex()('meta_capi_outbox').delete();
      await knex()('meta_capi_events').delete();
      await knex().raw('delete from pgboss.job where name = ?', [META_SEND_QUEUE]);
    });

    it('accepts only the listed browser event kinds and well-formed bodies (400 with the failing field)', async () => {
      for (const name of ['Purchase', 'PageView', 'viewcontent', '']) {
        const res = await post(event({ eventName: name }));
        expect(res.status, name).to.equal(400);
        expect(res.body.errors[0].path).to.equal('body/eventName');
      }
      expect((await post(event({ eventId: undefined }))).status).to.equal(400);
      expect((await post(event({ eventSourceUrl: 'javascript:alert(1)' }))).status).to.equal(400);
      expect((await post(event({ userData: { email: 'a@b.c', password: 'x' } }))).status).to.equal(400);
      expect((await post(event({ customData: { value: 1.5 } }))).status).to.equal(400);
      expect((await post(event({ customData: { value: 1, currency: 'USD' } }))).status).to.equal(400);
      const old = await post(event({ eventTime: Math.floor(Date.now() / 1000) - 8 * 86_400 }));
      expect(old.status).to.equal(422);
      expect(old.body.code).to.equal('event_time_out_of_range');
      expect(await outboxIds(knex())).to.deep.equal([]);
      for (const name of ['ViewContent', 'Lead', 'InitiateCheckout', 'Contact', 'Schedule']) {
        const res = await post(event({ eventName: name, eventId: `id-${name}` }));
        expect(res.status, name).to.equal(202);
        expect(res.body).to.deep.equal({ eventId: `id-${name}`, queued: true });
      }
      expect(await outboxIds(knex())).to.have.length(5);
    });

    it('queues a job naming only the outbox row, sends the hashed event with the token and test code, audits it and deletes the payload', async () => {
      const res = await post(event());
      expect(res.status).to.equal(202);
      const [outboxId] = await outboxIds(knex());
      const { rows: jobs } = (await knex().raw('select data from pgboss.job where name = ?', [META_SEND_QUEUE])) as { rows: Array<{ data: unknown }> };
      expect(jobs.map((j) => j.data)).to.deep.equal([{ outboxId }]);

      expect(await deliverMetaEvent(server.app.context, outboxId, job(1))).to.equal('sent');
      expect(graph.requests).to.have.length(1);
      const request = graph.requests[0];
      expect(request.method).to.equal('POST');
      expect(request.path).to.equal(`/v21.0/${PIXEL}/events`);
      expect(request.body.access_token).to.equal(TOKEN);
      expect(request.body.test_event_code).to.equal('TEST4242');
      expect(request.body.data).to.have.length(1);
      const sent = request.body.data[0];
      expect(sent).to.deep.include({ event_name: 'InitiateCheckout', event_id: 'evt-0001', action_source: 'website', event_source_url: 'https://venue.example/shows/saigon-nights' });
      expect(sent.event_time).to.be.closeTo(Math.floor(Date.now() / 1000), 30);
      expect(sent.user_data).to.deep.equal({
        em: [VECTORS['lan.nguyen@example.com']],
        ph: [VECTORS['84901234567']],
        fn: [VECTORS.lan],
        ln: [VECTORS['nguyễn']],
        external_id: [VECTORS['ext-42']],
        client_ip_address: '198.51.100.23',
        client_user_agent: UA,
        fbp: 'fb.1.1732345678901.1111111111',
        fbc: 'fb.1.1732345678901.AbCdEfClickId',
      });
      expect(sent.custom_data).to.deep.equal({ value: 3_564_000, currency: 'VND', content_ids: ['saigon-nights-2026-12-05-1930'] });
      expect(JSON.stringify(request.body)).not.to.match(/example\.com|nguyen@|090 123|0901234567/i);

      const rows = await audit(knex());
      expect(rows).to.have.length(1);
      expect(rows[0]).to.include({ event_name: 'InitiateCheckout', event_id: 'evt-0001', source: 'BROWSER', status: 'SENT', http_status: 200, fbtrace_id: 'TRACE1', events_received: 1, error_message: null, attempt: 1 });
      const auditText = JSON.stringify(rows).toLowerCase();
      for (const value of ['lan.nguyen', VECTORS['lan.nguyen@example.com'], VECTORS['84901234567'], '198.51.100.23', 'quokkaagent', 'fb.1.1732345678901', TOKEN.toLowerCase()]) {
        expect(auditText).not.to.include(value.toLowerCase());
      }
      expect(await outboxIds(knex())).to.deep.equal([]);
      // Run again (at-least-once delivery): nothing is sent twice.
      expect(await deliverMetaEvent(server.app.context, outboxId, job(1))).to.equal('gone');
      expect(graph.requests).to.have.length(1);
    });

    it('retries on 5xx with the same event_id, auditing each attempt, and gives up (payload deleted) after the last', async () => {
      await post(event({ eventId: 'evt-retry' }));
      const [outboxId] = await outboxIds(knex());
      graph.answerNext({ status: 503, body: { error: { message: 'Service temporarily unavailable', fbtrace_id: 'TR503' } } });
      let failure: Error | undefined;
      await deliverMetaEvent(server.app.context, outboxId, job(1)).catch((err: Error) => (failure = err));
      expect(failure?.message).to.match(/retried/);
      expect(await outboxIds(knex())).to.deep.equal([outboxId]);
      expect(await deliverMetaEvent(server.app.context, outboxId, job(2))).to.equal('sent');
      expect(graph.requests.map((r) => r.body.data[0].event_id)).to.deep.equal(['evt-retry', 'evt-retry']);
      const rows = await audit(knex());
      expect(rows.map((r) => [r.status, r.http_status, r.attempt, r.fbtrace_id, r.error_message])).to.deep.equal([
        ['RETRYING', 503, 1, 'TR503', 'Service temporarily unavailable'],
        ['SENT', 200, 2, rows[1].fbtrace_id, null],
      ]);
      expect(await outboxIds(knex())).to.deep.equal([]);

      await post(event({ eventId: 'evt-last' }));
      const [last] = await outboxIds(knex());
      graph.answerNext({ status: 500, body: { error: { message: 'boom' } } });
      let lastFailure: Error | undefined;
      await deliverMetaEvent(server.app.context, last, job(5)).catch((err: Error) => (lastFailure = err));
      expect(lastFailure?.message).to.match(/the last/);
      expect((await audit(knex())).at(-1)).to.include({ event_id: 'evt-last', status: 'FAILED', http_status: 500, attempt: 5 });
      expect(await outboxIds(knex())).to.deep.equal([]);
    });

    it('does not retry a 4xx: one attempt, audited FAILED, payload deleted', async () => {
      await post(event({ eventId: 'evt-400' }));
      const [outboxId] = await outboxIds(knex());
      graph.answerNext({ status: 400, body: { error: { message: 'Invalid parameter', type: 'OAuthException', code: 100, fbtrace_id: 'TR400' } } });
      expect(await deliverMetaEvent(server.app.context, outboxId, job(1))).to.equal('refused');
      expect(graph.requests).to.have.length(1);
      expect(await audit(knex())).to.have.length(1);
      expect((await audit(knex()))[0]).to.include({ status: 'FAILED', http_status: 400, fbtrace_id: 'TR400', error_message: 'Invalid parameter', attempt: 1 });
      expect(await outboxIds(knex())).to.deep.equal([]);
    });

    it('retries a time-out or a network failure (no HTTP status)', async () => {
      await post(event({ eventId: 'evt-net' }));
      const [outboxId] = await outboxIds(knex());
      const failing = (async () => {
        throw new TypeError('fetch failed');
      }) as unknown as typeof fetch;
      await deliverMetaEvent(server.app.context, outboxId, job(1), failing).catch(() => undefined);
      expect((await audit(knex()))[0]).to.include({ status: 'RETRYING', http_status: null, error_message: 'network: fetch failed' });
      expect(await outboxIds(knex())).to.deep.equal([outboxId]);
    });

    it('sends `Purchase` from the payment hook, in the payment transaction, with the reservation reference as event_id @db', async () => {
      const k = knex();
      const { event: showEvent, offer } = await showWithEvent();
      const customerId = await buildCustomer({ email: 'Lan.Nguyen@example.com', phone: '0901234567' });
      const reservation = await buildReservation({ eventId: showEvent.id, offerId: offer.id, customerId, createdAt: new Date() });
      const context = (trx: Knex.Transaction) => ({
        trx,
        app: server.app.context,
        actor: 'SYSTEM' as const,
        now: new Date(),
        afterCommit: () => undefined,
        outcome: 'SUCCEEDED' as const,
        paymentId: '00000000-0000-4000-8000-000000000001',
        payable: { kind: 'reservation', id: reservation.id },
        reservationId: reservation.id,
        gateway: 'VNPAY' as const,
        amountVnd: 3_564_000,
        refundedVnd: 0,
      });
      // A payment transaction that rolls back leaves neither the payload nor the job.
      await k
        .transaction(async (trx) => {
          await runPaymentHooks(context(trx));
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      expect(await outboxIds(k)).to.deep.equal([]);
      await k.transaction((trx) => runPaymentHooks(context(trx)));
      // Other outcomes send nothing.
      await k.transaction((trx) => runPaymentHooks({ ...context(trx), outcome: 'REFUNDED' }));
      const [outboxId] = await outboxIds(k);
      expect(await outboxIds(k)).to.have.length(1);
      expect(await deliverMetaEvent(server.app.context, outboxId, job(1))).to.equal('sent');
      const sent = graph.requests[0].body.data[0];
      expect(sent).to.deep.include({ event_name: 'Purchase', event_id: reservation.reference, action_source: 'system_generated' });
      expect(sent.custom_data).to.deep.include({ value: 3_564_000, currency: 'VND' });
      expect(sent.user_data).to.deep.equal({ em: [VECTORS['lan.nguyen@example.com']], ph: [VECTORS['84901234567']] });
      expect((await audit(k))[0]).to.include({ event_name: 'Purchase', event_id: reservation.reference, source: 'SERVER', status: 'SENT' });
    });

    it('sends `Lead` after a lead capture, with an event_id the browser can derive from its lead reference', async () => {
      const res = await server.request('POST', '/api/reservations/customer-lead', {
        body: { name: 'Nguyễn Thị Lan', email: 'lan.nguyen@example.com', phone: '+84 90 123 4567' },
        headers: { 'user-agent': UA, 'x-forwarded-for': '198.51.100.77', referer: 'https://venue.example/book' },
      });
      expect(res.status).to.equal(201);
      const [row] = await knex()('meta_capi_outbox').select('*');
      const expectedId = `lead.${createHash('sha256').update(res.body.leadReference).digest('hex').slice(0, 32)}`;
      expect(row).to.include({ event_name: 'Lead', source: 'SERVER', event_id: expectedId });
      expect(await deliverMetaEvent(server.app.context, row.id, job(1))).to.equal('sent');
      const sent = graph.requests[0].body.data[0];
      expect(sent).to.deep.include({ event_name: 'Lead', event_id: expectedId, action_source: 'website', event_source_url: 'https://venue.example/book' });
      expect(sent.user_data).to.deep.include({ em: [VECTORS['lan.nguyen@example.com']], ph: [VECTORS['84901234567']], client_ip_address: '198.51.100.77', client_user_agent: UA });
      expect(JSON.stringify(sent)).not.to.include(res.body.leadReference);
    });
  });

  it('runs the send through the job engine end to end: audited SENT, payload and job data gone @db', async function () {
    this.timeout(60_000);
    const graph = await startFakeMetaGraph();
    const server = await startTestServer({ config: metaConfig(graph), jobs: { workers: true, pollingIntervalSeconds: 0.5 } });
    try {
      const res = await server.request('POST', '/api/analytics/meta/outbound-event', { body: event({ eventId: 'evt-e2e' }), headers: { 'user-agent': UA } });
      expect(res.status).to.equal(202);
      const rows: any[] = await eventually(() => audit(server.db.knex), { until: (found) => found.length > 0, timeoutMs: 30_000, intervalMs: 100, orLast: true });
      expect(rows.map((r) => [r.event_id, r.status, r.source])).to.deep.equal([['evt-e2e', 'SENT', 'BROWSER']]);
      expect(await outboxIds(server.db.knex)).to.deep.equal([]);
      const { rows: jobs } = (await server.db.knex.raw(`select data::text as data from pgboss.job where name = ? union all select data::text from pgboss.archive where name = ?`, [META_SEND_QUEUE, META_SEND_QUEUE])) as { rows: Array<{ data: string }> };
      for (const { data } of jobs) expect(Object.keys(JSON.parse(data))).to.deep.equal(['outboxId']);
    } finally {
      await server.close();
      await graph.close();
    }
  });

  it('is off unless META_PIXEL_ID and META_CAPI_ACCESS_TOKEN are set: nothing queued, nothing sent; rate-limited per address', async () => {
    const graph = await startFakeMetaGraph();
    const server = await startTestServer({ config: { metaGraphApiUrl: graph.url, metaPixelId: PIXEL, metaEventRateLimitPerMinute: 2, trustProxy: true } });
    try {
      const send = () => server.request('POST', '/api/analytics/meta/outbound-event', { body: event(), headers: { 'x-forwarded-for': '192.0.2.5' } });
      const res = await send();
      expect(res.status).to.equal(202);
      expect(res.body).to.deep.equal({ eventId: 'evt-0001', queued: false });
      const lead = await server.request('POST', '/api/reservations/customer-lead', { body: { name: 'Guest', email: 'guest@example.com' } });
      expect(lead.status).to.equal(201);
      expect(await outboxIds(server.db.knex)).to.deep.equal([]);
      const { rows } = (await server.db.knex.raw('select count(*)::int as n from pgboss.job where name = ?', [META_SEND_QUEUE])) as { rows: Array<{ n: number }> };
      expect(rows[0].n).to.equal(0);
      expect((await send()).status).to.equal(202);
      const refused = await send();
      expect(refused.status).to.equal(429);
      expect(refused.headers.get('retry-after')).to.match(/^\d+$/);
      expect(graph.requests).to.deep.equal([]);
    } finally {
      await server.close();
      await graph.close();
    }
  });
});
