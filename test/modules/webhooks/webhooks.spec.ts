import { expect } from 'chai';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { inTransition } from '../../../server/domain/unitOfWork.ts';
import { confirmReservation } from '../../../server/modules/booking/index.ts';
import { AddressGuard } from '../../../server/platform/integrations/outboundHttp.ts';
import { buildAccount, buildMembership, buildMemberSession } from '../../helpers/factories.ts';
import { cookieHeader } from '../../helpers/server.ts';
import { hold } from '../payments/helpers.ts';
import { apiKeyWith, catalogSpec, MISSING_ID } from '../shows/catalog.ts';
import { bookableEvent } from '../booking/factories.ts';
import {
  ALL_TYPES,
  createEndpoint,
  metricsOn,
  nonce,
  queuedDeliveries,
  runDeliveries,
  sample,
  scrape,
  sendInquiry,
  webhookEventValidator,
  webhooksConfig,
} from './helpers.ts';
import { startReceiver, type Receiver } from './receiver.ts';

/**
 * Webhooks to the venue's other systems (issue 36 §3): endpoints registered by Admin+ with the event types they want;
 * every listed event written as an outbox message in its command's transaction and delivered per Standard Webhooks
 * by the job (here run as the engine's workers would, one due job at a time; `advance` is time moving on to the
 * retries), verified by a test receiver with the `standardwebhooks` library's `Webhook.verify`; ordering per
 * reservation per endpoint, retries, the delivery log, manual redelivery, the disabling rule and its e-mail, secret
 * rotation, the address guard (SSRF), metrics. The engine's own workers and a restart: restart.spec.ts.
 */
describe('webhooks: endpoints, events and their deliveries (Standard Webhooks) @db', function () {
  this.timeout(60_000);
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());
  const spec = catalogSpec({
    config: { trustProxy: true, ...webhooksConfig({ allowedNetworks: ['127.0.0.1/32'], timeoutMs: 1_000 }), ...metricsOn() },
  });
  const admin = () => spec.as(spec.callers.admin);
  const staff = () => spec.as(spec.callers.staff);
  const knex = () => spec.server.db.knex;
  const messagesOf = (endpointId: string) => knex()('webhook_messages').where({ endpoint_id: endpointId }).orderBy('seq');

  beforeEach(async () => {
    receiver.reset();
    await knex()('webhook_endpoints').delete();
    await knex().raw("delete from pgboss.job where name = 'webhooks.deliver'");
    await knex()('commercial_setup').update({ payment_gateways: JSON.stringify(['VNPAY', 'CASH']) });
  });

  describe('endpoints: Admin+ only, the secret shown once and kept sealed, bad input named', () => {
    it('answers staff 403 and anonymous callers 401 on every operation; admins, superusers and API keys with webhooks:* get through', async () => {
      const { id } = await createEndpoint(spec.server, spec.callers.admin, { url: receiver.url(), eventTypes: ['inquiry.received'] });
      const calls = [
        (as: ReturnType<typeof admin>) => as.get('/api/webhooks/endpoints'),
        (as: ReturnType<typeof admin>) => as.post('/api/webhooks/endpoints', { url: receiver.url(), eventTypes: ['inquiry.received'] }),
        (as: ReturnType<typeof admin>) => as.get(`/api/webhooks/endpoints/${id}`),
        (as: ReturnType<typeof admin>) => as.patch(`/api/webhooks/endpoints/${id}`, { description: 'x' }),
        (as: ReturnType<typeof admin>) => as.post(`/api/webhooks/endpoints/${id}/rotate-secret`),
        (as: ReturnType<typeof admin>) => as.delete(`/api/webhooks/endpoints/${MISSING_ID}`),
        (as: ReturnType<typeof admin>) => as.get('/api/webhooks/messages'),
        (as: ReturnType<typeof admin>) => as.get(`/api/webhooks/messages/${MISSING_ID}`),
        (as: ReturnType<typeof admin>) => as.post(`/api/webhooks/messages/${MISSING_ID}/redeliver`),
      ];
      const kitchen = cookieHeader((await buildMemberSession('kitchen_pos')).token);
      for (const call of calls) {
        for (const refused of [spec.callers.staff, kitchen]) {
          const res = await call(spec.as(refused));
          expect([res.status, res.body.code]).to.deep.equal([403, 'insufficient_role']);
        }
        expect((await call(spec.as({}))).status).to.equal(401);
        for (const allowed of [spec.callers.admin, spec.callers.superuser]) expect((await call(spec.as(allowed))).status).to.be.oneOf([200, 201, 204, 404]);
      }
      const reader = await apiKeyWith('webhooks:read');
      expect((await spec.as(reader).get('/api/webhooks/endpoints')).status).to.equal(200);
      const refused = await spec.as(reader).post('/api/webhooks/endpoints', { url: receiver.url(), eventTypes: ['inquiry.received'] });
      expect([refused.status, refused.body.code]).to.deep.equal([403, 'missing_permission']);
      const writer = await apiKeyWith('webhooks:write');
      expect((await spec.as(writer).post('/api/webhooks/endpoints', { url: receiver.url(), eventTypes: ['inquiry.received'] })).status).to.equal(201);
    });

    it('creates with a whsec_ secret (32 random bytes) shown once; reads, lists, changes and deletes without it; the row keeps it sealed', async () => {
      const created = await admin().post('/api/webhooks/endpoints', { url: receiver.url(), eventTypes: ['reservation.confirmed', 'payment.succeeded'], description: 'CRM' });
      expect(created.status).to.equal(201);
      const { endpoint, secret } = created.body;
      expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice(6), 'base64')).to.have.length(32);
      expect(endpoint).to.deep.include({ url: receiver.url(), eventTypes: ['reservation.confirmed', 'payment.succeeded'], description: 'CRM', enabled: true, disabledReason: null, failingSince: null });
      const row = await knex()('webhook_endpoints').where({ id: endpoint.id }).first();
      expect(row.secret_sealed).to.be.a('string').and.not.include(secret.slice(6));
      // Who registered it: the admin's account.
      expect(await knex()('organization_members').where({ account_id: row.created_by, role: 'admin' }).first()).to.not.equal(undefined);

      const read = await admin().get(`/api/webhooks/endpoints/${endpoint.id}`);
      expect(read.body).to.deep.equal(endpoint);
      expect(read.text).not.to.include(secret.slice(6));
      const second = await createEndpoint(spec.server, spec.callers.admin, { url: receiver.url('/other'), eventTypes: ['inquiry.received'], enabled: false });
      expect(second.secret).not.to.equal(secret);
      const listed = await admin().get('/api/webhooks/endpoints');
      expect(listed.body.items.map((e: any) => e.id)).to.deep.equal([second.id, endpoint.id]);
      expect(listed.text).not.to.include(secret.slice(6));
      expect((await admin().get('/api/webhooks/endpoints?enabled=false')).body.items.map((e: any) => [e.id, e.disabledReason])).to.deep.equal([[second.id, 'MANUAL']]);

      const changed = await admin().patch(`/api/webhooks/endpoints/${endpoint.id}`, { eventTypes: ['inquiry.received'], description: null });
      expect(changed.status).to.equal(200);
      expect(changed.body).to.deep.include({ eventTypes: ['inquiry.received'], description: null });
      expect((await admin().delete(`/api/webhooks/endpoints/${endpoint.id}`)).status).to.equal(204);
      expect((await admin().get(`/api/webhooks/endpoints/${endpoint.id}`)).status).to.equal(404);
      expect((await admin().delete(`/api/webhooks/endpoints/${endpoint.id}`)).status).to.equal(404);
    });

    it('answers bad input 400 naming the failing fields, and refused URLs 422 webhook_url_refused, writing nothing', async () => {
      const post = (body: unknown) => admin().post('/api/webhooks/endpoints', body);
      const fields = (res: any) => res.body.errors.map((e: any) => e.path);
      const missing = await post({});
      expect([missing.status, missing.body.code]).to.deep.equal([400, 'validation_failed']);
      expect(fields(missing)).to.include.members(['body/url', 'body/eventTypes']);
      expect(fields(await post({ url: receiver.url(), eventTypes: ['reservation.paid'] }))).to.deep.equal(['body/eventTypes/0']);
      expect(fields(await post({ url: receiver.url(), eventTypes: [] }))).to.deep.equal(['body/eventTypes']);
      expect(fields(await post({ url: receiver.url(), eventTypes: ['inquiry.received', 'inquiry.received'] }))).to.deep.equal(['body/eventTypes']);
      expect(fields(await post({ url: 'ftp://crm.example.com/x', eventTypes: ['inquiry.received'] }))).to.deep.equal(['body/url']);
      expect(fields(await post({ url: 'not a url', eventTypes: ['inquiry.received'] }))).to.include('body/url');
      expect(fields(await post({ url: receiver.url(), eventTypes: ['inquiry.received'], description: 'x'.repeat(501) }))).to.deep.equal(['body/description']);
      expect(fields(await post({ url: receiver.url(), eventTypes: ['inquiry.received'], secret: 'whsec_mine' }))).to.deep.equal(['body/secret']);
      for (const url of ['http://10.0.0.5/hook', 'http://[::1]:8080/hook', 'http://169.254.169.254/latest/meta-data', 'http://192.168.1.20/x', 'http://[fd00::1]/x', 'https://user:pw@crm.example.com/hook']) {
        const refused = await post({ url, eventTypes: ['inquiry.received'] });
        expect([refused.status, refused.body.code, fields(refused)], url).to.deep.equal([422, 'webhook_url_refused', ['body/url']]);
      }
      const { id } = await createEndpoint(spec.server, spec.callers.admin, { url: receiver.url(), eventTypes: ['inquiry.received'] });
      const emptyPatch = await admin().patch(`/api/webhooks/endpoints/${id}`, {});
      expect(emptyPatch.status).to.equal(400);
      const badPatch = await admin().patch(`/api/webhooks/endpoints/${id}`, { url: 'http://10.1.2.3/x' });
      expect([badPatch.status, badPatch.body.code]).to.deep.equal([422, 'webhook_url_refused']);
      expect((await admin().get('/api/webhooks/messages?status=LOST')).body.errors.map((e: any) => e.path)).to.deep.equal(['query/status']);
      expect((await admin().get('/api/webhooks/endpoints/not-a-uuid')).status).to.equal(400);
      expect(Number((await knex()('webhook_endpoints').count({ n: '*' }).first())!.n)).to.equal(1);
      expect((await knex()('webhook_endpoints').where({ id }).first()).url).to.equal(receiver.url());
    });
  });

  describe('events: every listed one, once per successful delivery, signed, in order per reservation', () => {
    it('delivers each event a command committed, after it committed and never on its request path, retrying a receiver that fails the first attempts', async () => {
      const all = await createEndpoint(spec.server, spec.callers.admin, { url: receiver.url('/hooks'), eventTypes: ALL_TYPES, description: 'CRM' });
      const inquiriesOnly = await createEndpoint(spec.server, spec.callers.admin, { url: receiver.url('/inquiries'), eventTypes: ['inquiry.received'] });
      const off = await createEndpoint(spec.server, spec.callers.admin, { url: receiver.url('/off'), eventTypes: ALL_TYPES, enabled: false });
      receiver.secrets = [all.secret, inquiriesOnly.secret];

      // R1: part paid by a voucher, the rest in cash (payment, confirmation, voucher redeemed), checked in, part refunded.
      const voucher = await staff().post('/api/vouchers', { valueVnd: 500_000, expiresAt: new Date(Date.now() + 365 * 86_400_000).toISOString() });
      expect(voucher.status).to.equal(201);
      const r1 = await hold(spec.server, { guests: 2, who: 11, extra: { voucherCode: voucher.body.code } });
      const paid1 = await admin().post('/api/payments', { reservationId: r1.id, method: 'CASH' });
      expect(paid1.status, JSON.stringify(paid1.body)).to.equal(201);
      await knex()('show_events').where({ id: r1.eventId }).update({ starts_at: new Date(), doors_at: new Date(Date.now() - 1_800_000) });
      const entry = await staff().post('/api/check-ins', { reservationId: r1.id, type: 'ENTRY', nonce: nonce() });
      expect(entry.body.checkIn.result, JSON.stringify(entry.body)).to.equal('ok');
      expect((await admin().post(`/api/payments/${paid1.body.id}/refunds`, { amountVnd: 100_000, reason: 'one dessert missing' })).status).to.equal(201);
      // R2: paid, then a no-show once its show has started.
      const r2 = await hold(spec.server, { guests: 3, who: 12 });
      expect((await admin().post('/api/payments', { reservationId: r2.id, method: 'CASH' })).status).to.equal(201);
      await knex()('show_events').where({ id: r2.eventId }).update({ starts_at: new Date(Date.now() - 3_600_000), doors_at: null });
      expect((await staff().post(`/api/reservations/${r2.id}/no-show`)).status).to.equal(200);
      // R3: a hold cancelled by staff.
      const r3 = await hold(spec.server, { who: 13 });
      expect((await staff().post(`/api/reservations/${r3.id}/cancel`, { reason: 'duplicate' })).status).to.equal(200);
      // R4: paid in cash, cancelled, its money handed back in full.
      const r4 = await hold(spec.server, { who: 14 });
      const paid4 = await admin().post('/api/payments', { reservationId: r4.id, method: 'CASH' });
      expect((await staff().post(`/api/reservations/${r4.id}/cancel`)).status).to.equal(200);
      const [refund4] = await knex()('refunds').where({ payment_id: paid4.body.id });
      expect((await admin().post(`/api/refunds/${refund4.id}/complete`)).status).to.equal(200);
      // An inquiry; a waiting-list offer once a sold-out event's booking (R5) is cancelled.
      const inquiryId = await sendInquiry(spec.server, 1);
      const soldOut = await bookableEvent({ capacity: 4 });
      const r5 = await hold(spec.server, { guests: 4, who: 15, eventSlug: soldOut.event.slug, offerCode: soldOut.offer.code });
      expect((await spec.server.request('POST', '/api/waitlist', { headers: { 'x-forwarded-for': '198.51.100.9' }, body: { eventSlug: soldOut.event.slug, guestCount: 2, name: 'Waiting Guest', email: 'waiting@example.com', locale: 'en' } })).status).to.equal(201);
      const waiting = await knex()('waitlist_entries').where({ email: 'waiting@example.com' }).first('id');
      expect((await staff().post(`/api/reservations/${r5.id}/cancel`)).status).to.equal(200);
      expect((await staff().post(`/api/waitlist/${waiting.id}/notify`)).status).to.equal(200);

      // Nothing was sent on any request path: the messages wait for the job, one per endpoint that wants the event.
      expect(receiver.requests).to.deep.equal([]);
      const expected: Record<string, string[]> = {
        [`reservation:${r1.id}`]: ['payment.succeeded', 'reservation.confirmed', 'voucher.redeemed', 'reservation.checked_in', 'payment.refunded'],
        [`reservation:${r2.id}`]: ['payment.succeeded', 'reservation.confirmed', 'reservation.no_show'],
        [`reservation:${r3.id}`]: ['reservation.cancelled'],
        [`reservation:${r4.id}`]: ['payment.succeeded', 'reservation.confirmed', 'reservation.cancelled', 'payment.refunded'],
        [`reservation:${r5.id}`]: ['reservation.cancelled'],
        [`inquiry:${inquiryId}`]: ['inquiry.received'],
        [`waitlist:${waiting.id}`]: ['waitlist.offer_made'],
      };
      const stored = await messagesOf(all.id);
      const bySubject: Record<string, string[]> = {};
      for (const message of stored) (bySubject[message.ordering_key] ??= []).push(message.event_type);
      expect(bySubject).to.deep.equal(expected);
      // `voucher.sold` (a gift voucher paid online, through VNPay's IPN) is delivered, signed, by test/modules/giftVouchers/.
      expect(new Set(stored.map((m) => m.event_type))).to.deep.equal(new Set(ALL_TYPES.filter((type) => type !== 'voucher.sold')));
      expect((await messagesOf(inquiriesOnly.id)).map((m) => m.event_type)).to.deep.equal(['inquiry.received']);
      expect(await messagesOf(off.id)).to.deep.equal([]);
      expect((await queuedDeliveries(spec.server)).length).to.equal(stored.length + 1);

      // The receiver fails the first two attempts of every message; the first run tries the head of each subject once.
      receiver.failFirst = 2;
      const first = await runDeliveries(spec.server);
      expect(first.filter((outcome) => outcome === 'retrying')).to.have.length(Object.keys(expected).length + 1);
      expect(first.filter((outcome) => outcome === 'waiting')).to.have.length(stored.length - Object.keys(expected).length);
      expect(receiver.requests.every((request) => request.status === 503)).to.equal(true);
      const retry = (await queuedDeliveries(spec.server))[0];
      const head = await knex()('webhook_messages').where({ id: retry.messageId }).first();
      expect(retry.startAfter.getTime() - new Date(head.last_attempt_at).getTime()).to.be.within(4_000, 6_500);
      expect(new Date(head.next_attempt_at).getTime()).to.equal(retry.startAfter.getTime());
      // Time moves on: the retries, then each subject's next message as the one before it is delivered.
      await runDeliveries(spec.server, { advance: true });

      const validate = webhookEventValidator();
      const fromAll = receiver.requests.filter((request) => request.path === '/hooks');
      expect(fromAll).to.have.length(stored.length * 3);
      for (const request of receiver.requests) {
        expect(request.verifiedWith, `${request.path} ${request.id}`).to.deep.equal([request.path === '/hooks' ? 0 : 1]);
        expect(validate(request.payload), JSON.stringify(validate.errors)).to.equal(true);
        expect(Number(request.timestamp)).to.be.closeTo(Date.now() / 1000, 60);
      }
      // Exactly one successful delivery per message, with the message's id as webhook-id.
      const delivered = receiver.delivered();
      expect(delivered.map((request) => request.id).sort()).to.deep.equal([...stored.map((m) => m.id), (await messagesOf(inquiriesOnly.id))[0].id].sort());
      // In order per reservation: no request for a subject's message before the one before it was delivered.
      const subjectOf = new Map(stored.map((m) => [m.id, m.ordering_key]));
      const positionOf = new Map(stored.map((m) => [m.id, stored.filter((o) => o.ordering_key === m.ordering_key && Number(o.seq) < Number(m.seq)).length]));
      const deliveredSoFar = new Map<string, number>();
      for (const request of fromAll) {
        const subject = subjectOf.get(request.id)!;
        expect(positionOf.get(request.id), `${request.payload.type} of ${subject}`).to.equal(deliveredSoFar.get(subject) ?? 0);
        if (request.status === 200) deliveredSoFar.set(subject, (deliveredSoFar.get(subject) ?? 0) + 1);
      }
      const receivedBySubject: Record<string, string[]> = {};
      for (const request of delivered.filter((r) => r.path === '/hooks')) (receivedBySubject[subjectOf.get(request.id)!] ??= []).push(request.payload.type);
      expect(receivedBySubject).to.deep.equal(expected);

      // What the bodies say: ids, reference, statuses, VND amounts, the performance, the party; no guest contact.
      const body = (type: string, subject: string) => delivered.find((r) => r.payload.type === type && subjectOf.get(r.id) === subject)!.payload;
      const confirmed = body('reservation.confirmed', `reservation:${r1.id}`);
      expect(Object.keys(confirmed)).to.deep.equal(['type', 'timestamp', 'data']);
      expect(confirmed.data).to.deep.include({ reservationId: r1.id, reference: r1.reference, status: 'CONFIRMED', previousStatus: 'HELD', guestCount: 2, cancelledBy: null });
      expect(confirmed.data.amounts).to.deep.include({ totalVnd: r1.totalVnd, voucherCreditVnd: 500_000, paidVnd: r1.totalVnd, dueVnd: 0 });
      expect(confirmed.data.showEvent).to.include({ id: r1.eventId });
      expect(confirmed.data.showEvent.showTitle).to.be.an('object');
      expect(body('voucher.redeemed', `reservation:${r1.id}`).data).to.deep.equal({ voucherId: voucher.body.id, amountVnd: 500_000, remainingVnd: 0, reservationId: r1.id, reference: r1.reference });
      expect(body('payment.succeeded', `reservation:${r1.id}`).data).to.deep.include({ paymentId: paid1.body.id, status: 'SUCCEEDED', gateway: 'CASH', amountVnd: r1.totalVnd, refundedVnd: 0, refundKind: null, reference: r1.reference });
      expect(body('payment.refunded', `reservation:${r1.id}`).data).to.deep.include({ status: 'PARTIALLY_REFUNDED', refundedVnd: 100_000, refundKind: 'partial' });
      expect(body('payment.refunded', `reservation:${r4.id}`).data).to.deep.include({ paymentId: paid4.body.id, status: 'REFUNDED', refundKind: 'full', refundedVnd: r4.totalVnd });
      expect(body('reservation.checked_in', `reservation:${r1.id}`).data).to.include({ status: 'CHECKED_IN', previousStatus: 'CONFIRMED' });
      expect(body('reservation.no_show', `reservation:${r2.id}`).data).to.include({ status: 'NO_SHOW', guestCount: 3 });
      expect(body('reservation.cancelled', `reservation:${r3.id}`).data).to.include({ status: 'CANCELLED', previousStatus: 'HELD', cancelledBy: 'STAFF' });
      expect(body('inquiry.received', `inquiry:${inquiryId}`).data).to.deep.include({ inquiryId, inquiryType: 'GROUP_BOOKING', guestCount: 12, preferredDate: '2027-02-14' });
      expect(body('waitlist.offer_made', `waitlist:${waiting.id}`).data).to.deep.include({ entryId: waiting.id, guestCount: 2 });
      const everything = receiver.requests.map((r) => r.body).join('\n');
      for (const personal of ['guest11@example.com', 'Guest 11', '123 4567', 'inquirer1@example.com', 'Inquirer 1', 'waiting@example.com', 'A table for twelve', voucher.body.code]) {
        expect(everything, personal).not.to.include(personal);
      }

      // The delivery log: three attempts each (503, 503, 200), the answer's first KiB, latency; the API shows it.
      const log = await knex()('webhook_attempts').where({ message_id: stored[0].id }).orderBy('attempt');
      expect(log.map((a) => [a.attempt, a.outcome, a.status_code, a.manual])).to.deep.equal([
        [1, 'FAILED', 503, false],
        [2, 'FAILED', 503, false],
        [3, 'SUCCEEDED', 200, false],
      ]);
      expect(log[0].response_excerpt).to.have.length(1024);
      expect(log[0].error).to.equal('the endpoint answered 503');
      expect(log[2].response_excerpt).to.equal('ok');
      const detail = await admin().get(`/api/webhooks/messages/${stored[0].id}`);
      expect(detail.status).to.equal(200);
      expect(detail.body.message).to.deep.include({ id: stored[0].id, endpointId: all.id, status: 'SUCCEEDED', attempts: 3, nextAttemptAt: null, failureReason: null });
      expect(detail.body.attempts.map((a: any) => [a.attempt, a.statusCode, a.outcome])).to.deep.equal([
        [1, 503, 'FAILED'],
        [2, 503, 'FAILED'],
        [3, 200, 'SUCCEEDED'],
      ]);
      expect(detail.body.payload).to.deep.equal(JSON.parse(stored[0].body));
      const page = await admin().get(`/api/webhooks/messages?endpointId=${all.id}&eventType=reservation.confirmed&limit=2`);
      expect(page.body.total).to.equal(3);
      expect(page.body.items.map((m: any) => [m.status, m.lastAttempt.statusCode])).to.deep.equal([
        ['SUCCEEDED', 200],
        ['SUCCEEDED', 200],
      ]);
      expect((await admin().get('/api/webhooks/messages?status=PENDING')).body.total).to.equal(0);

      // Metrics count the deliveries by result.
      const metrics = await scrape(spec.server);
      expect(sample(metrics, 'venue_webhook_deliveries_total', { result: 'succeeded' })).to.be.at.least(stored.length + 1);
      expect(sample(metrics, 'venue_webhook_deliveries_total', { result: 'http_error' })).to.be.at.least(2 * (stored.length + 1));

      // A manual redelivery sends the same body and webhook-id again, signed anew; the receiver deduplicates on the id.
      receiver.reset();
      receiver.secrets = [all.secret];
      const again = await admin().post(`/api/webhooks/messages/${stored[0].id}/redeliver`);
      expect(again.status).to.equal(202);
      expect(again.body).to.deep.include({ id: stored[0].id, status: 'PENDING', attempts: 3 });
      expect(await runDeliveries(spec.server)).to.deep.equal(['succeeded']);
      expect(receiver.requests.map((r) => [r.id, r.body, r.verifiedWith])).to.deep.equal([[stored[0].id, stored[0].body, [0]]]);
      const redelivered = await knex()('webhook_attempts').where({ message_id: stored[0].id }).orderBy('attempt', 'desc').first();
      expect(redelivered).to.include({ attempt: 4, manual: true, outcome: 'SUCCEEDED' });
      expect((await admin().post(`/api/webhooks/messages/${MISSING_ID}/redeliver`)).status).to.equal(404);
    });

    it('writes nothing for a command that rolls back: no message, no job', async () => {
      const { id } = await createEndpoint(spec.server, spec.callers.admin, { url: receiver.url(), eventTypes: ['reservation.confirmed'] });
      const held = await hold(spec.server, { who: 21 });
      const failure = await inTransition(spec.server.app.context, 'SYSTEM', async (ctx) => {
        await confirmReservation(ctx, held.id, { by: 'STAFF' });
        expect(Number((await ctx.trx('webhook_messages').where({ endpoint_id: id }).count({ n: '*' }).first())!.n)).to.equal(1);
        throw new Error('the command fails after its event');
      }).catch((err: Error) => err);
      expect(failure).to.be.instanceOf(Error);
      expect(await messagesOf(id)).to.deep.equal([]);
      expect(await queuedDeliveries(spec.server)).to.deep.equal([]);
      expect((await knex()('reservations').where({ id: held.id }).first()).status).to.equal('HELD');
    });
  });

  describe('retries, giving up, disabling after sustained failure', () => {
    it('retries on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), then fails the message and delivers the next one of its reservation', async () => {
      const { id } = await createEndpoint(spec.server, spec.callers.admin, { url: receiver.url('/fail'), eventTypes: ['reservation.confirmed', 'reservation.cancelled'] });
      const held = await hold(spec.server, { who: 31 });
      await admin().post(`/api/reservations/${held.id}/confirm`);
      await staff().post(`/api/reservations/${held.id}/cancel`);
      const [confirmed, cancelled] = await messagesOf(id);
      // One job at a time, time moving on to each: the confirmation's attempts, and its delay after each failure.
      const delays: number[] = [];
      let attempts = 0;
      for (let run = 0; run < 50; run++) {
        expect(await runDeliveries(spec.server, { max: 1, advance: true })).not.to.include('succeeded');
        const message = await knex()('webhook_messages').where({ id: confirmed.id }).first();
        if (message.status !== 'PENDING') break;
        if (message.attempts === attempts) continue;
        attempts = message.attempts;
        delays.push(Math.round((new Date(message.next_attempt_at).getTime() - new Date(message.last_attempt_at).getTime()) / 1000));
      }
      expect(delays).to.deep.equal([5, 300, 1800, 7200, 18000, 36000, 36000]);
      const failed = await knex()('webhook_messages').where({ id: confirmed.id }).first();
      expect(failed).to.include({ status: 'FAILED', failure_reason: 'retries_exhausted', attempts: 8 });
      expect(await knex()('webhook_attempts').where({ message_id: confirmed.id })).to.have.length(8);
      // The cancellation waited for it, and is now under way (it too fails here: its first attempt is on record).
      expect((await knex()('webhook_attempts').where({ message_id: cancelled.id })).length).to.equal(0);
      await runDeliveries(spec.server, { max: 1 });
      expect((await knex()('webhook_attempts').where({ message_id: cancelled.id })).length).to.equal(1);
      // Real time did not pass a day: the endpoint is failing, not disabled.
      expect(await knex()('webhook_endpoints').where({ id }).first()).to.include({ enabled: true });
    });

    it('disables an endpoint whose every attempt failed for 24 h, fails its pending messages and e-mails the administrators', async () => {
      await buildMemberSession('admin', { email: 'ops-admin@venue.test' });
      await buildMemberSession('owner', { email: 'owner@venue.test' });
      const banned = await buildAccount({ email: 'banned-admin@venue.test', banned: true });
      await buildMembership(banned, 'admin');
      await buildMemberSession('member', { email: 'floor@venue.test' });
      const { id } = await createEndpoint(spec.server, spec.callers.admin, { url: `${receiver.url('/fail')}?token=receiver-secret`, eventTypes: ['inquiry.received'], description: 'Accounting' });
      await sendInquiry(spec.server, 41);
      await sendInquiry(spec.server, 42);
      expect(await runDeliveries(spec.server)).to.deep.equal(['retrying', 'retrying']);
      const failing = await knex()('webhook_endpoints').where({ id }).first();
      expect(failing.failing_since).to.be.instanceOf(Date);
      expect((await admin().get(`/api/webhooks/endpoints/${id}`)).body.failingSince).to.equal(failing.failing_since.toISOString());
      const before = sample(await scrape(spec.server), 'venue_webhook_endpoints_disabled_total') ?? 0;

      // A day later (the clock: when its failures began), the next failed attempt disables it.
      await knex()('webhook_endpoints').where({ id }).update({ failing_since: new Date(Date.now() - 25 * 3_600_000) });
      expect(await runDeliveries(spec.server, { advance: true, max: 1 })).to.deep.equal(['failed']);
      const disabled = await knex()('webhook_endpoints').where({ id }).first();
      expect(disabled).to.include({ enabled: false, disabled_reason: 'FAILING' });
      expect((await messagesOf(id)).map((m) => [m.status, m.failure_reason])).to.deep.equal([
        ['FAILED', 'endpoint_disabled'],
        ['FAILED', 'endpoint_disabled'],
      ]);
      // The job still queued for the other message finds nothing to do; no more requests reach the endpoint.
      const sent = receiver.requests.length;
      expect(await runDeliveries(spec.server, { advance: true })).to.deep.equal(['settled']);
      expect(receiver.requests.length).to.equal(sent);
      expect(sample(await scrape(spec.server), 'venue_webhook_endpoints_disabled_total')).to.equal(before + 1);

      // To every administrator (admin or owner) whose ban is not in force, once each; not to the floor staff.
      const mails = await knex()('email_messages').where({ template: 'webhook-endpoint-disabled' }).orderBy('to_address');
      const recipients = mails.map((m) => m.to_address);
      expect(recipients).to.include.members(['ops-admin@venue.test', 'owner@venue.test']);
      expect(recipients).not.to.include.members(['banned-admin@venue.test', 'floor@venue.test']);
      expect(new Set(recipients).size).to.equal(recipients.length);
      const administrators = await knex()('accounts as a').join('organization_members as m', 'm.account_id', 'a.id').whereIn('m.role', ['owner', 'admin']).where('a.banned', false).distinct('a.email');
      expect(recipients).to.have.length(administrators.length);
      expect(mails[0].subject).to.equal(`Webhook endpoint disabled: ${receiver.url('/fail')}`);
      expect(mails[0].text_body).to.include('the endpoint answered 503').and.include('Accounting').and.include('2 event(s)').and.not.include('receiver-secret');

      // Off, its messages cannot be redelivered; on again, its failures are forgotten and a redelivery goes out.
      const [firstMessage] = await messagesOf(id);
      const refused = await admin().post(`/api/webhooks/messages/${firstMessage.id}/redeliver`);
      expect([refused.status, refused.body.code]).to.deep.equal([409, 'webhook_endpoint_disabled']);
      await sendInquiry(spec.server, 43);
      expect(await messagesOf(id)).to.have.length(2);
      const on = await admin().patch(`/api/webhooks/endpoints/${id}`, { enabled: true, url: receiver.url('/hooks') });
      expect(on.body).to.deep.include({ enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
      expect((await admin().post(`/api/webhooks/messages/${firstMessage.id}/redeliver`)).status).to.equal(202);
      expect(await runDeliveries(spec.server)).to.deep.equal(['succeeded']);
      expect(receiver.delivered().map((r) => r.id)).to.deep.equal([firstMessage.id]);
    });

    it('forgets an endpoint’s failures at its first success, and turning it off by hand fails its pending messages without e-mail', async () => {
      const { id } = await createEndpoint(spec.server, spec.callers.admin, { url: receiver.url('/hooks'), eventTypes: ['inquiry.received'] });
      receiver.failFirst = 1;
      await sendInquiry(spec.server, 51);
      await runDeliveries(spec.server);
      expect((await knex()('webhook_endpoints').where({ id }).first()).failing_since).to.be.instanceOf(Date);
      await runDeliveries(spec.server, { advance: true });
      expect((await knex()('webhook_endpoints').where({ id }).first()).failing_since).to.equal(null);

      const mails = () => knex()('email_messages').where({ template: 'webhook-endpoint-disabled' });
      const mailsBefore = (await mails()).length;
      await sendInquiry(spec.server, 52);
      const off = await admin().patch(`/api/webhooks/endpoints/${id}`, { enabled: false });
      expect(off.body).to.deep.include({ enabled: false, disabledReason: 'MANUAL' });
      expect((await messagesOf(id)).map((m) => m.status)).to.deep.equal(['SUCCEEDED', 'FAILED']);
      expect(await runDeliveries(spec.server)).to.deep.equal(['settled']);
      await sendInquiry(spec.server, 53);
      expect(await messagesOf(id)).to.have.length(2);
      expect(await mails()).to.have.length(mailsBefore);
    });
  });

  describe('outbound requests: the address guard, no redirects, a time-out', () => {
    it('refuses a name that resolves to a loopback address at delivery (checked on the resolved address), unless the network is allowed', async () => {
      const port = new URL(receiver.url()).port;
      const { id } = await createEndpoint(spec.server, spec.callers.admin, { url: `http://localhost:${port}/hooks`, eventTypes: ['inquiry.received'] });
      const allowed = spec.server.app.context.webhookGuard;
      spec.server.app.context.webhookGuard = new AddressGuard([]);
      try {
        await sendInquiry(spec.server, 61);
        expect(await runDeliveries(spec.server)).to.deep.equal(['retrying']);
      } finally {
        spec.server.app.context.webhookGuard = allowed;
      }
      expect(receiver.requests).to.deep.equal([]);
      const [message] = await messagesOf(id);
      const [attempt] = await knex()('webhook_attempts').where({ message_id: message.id });
      expect(attempt).to.include({ outcome: 'FAILED', status_code: null });
      expect(attempt.error).to.match(/^localhost resolves to (127\.0\.0\.1|::1), a private, loopback or reserved address$/);
      expect(sample(await scrape(spec.server), 'venue_webhook_deliveries_total', { result: 'refused' })).to.be.at.least(1);
      // Allowed (WEBHOOK_ALLOWED_NETWORKS), the retry reaches it.
      receiver.secrets = [];
      expect(await runDeliveries(spec.server, { advance: true })).to.deep.equal(['succeeded']);
      expect(receiver.delivered().map((r) => r.id)).to.deep.equal([message.id]);
    });

    it('follows no redirect (a 3xx is a failed attempt) and gives up on an endpoint that does not answer within the time-out', async () => {
      const redirecting = await createEndpoint(spec.server, spec.callers.admin, { url: receiver.url('/redirect'), eventTypes: ['inquiry.received'] });
      const slow = await createEndpoint(spec.server, spec.callers.admin, { url: receiver.url('/slow'), eventTypes: ['inquiry.received'] });
      await sendInquiry(spec.server, 71);
      expect(await runDeliveries(spec.server)).to.deep.equal(['retrying', 'retrying']);
      expect(receiver.requests.map((r) => r.path)).to.deep.equal(['/redirect']);
      const [redirected] = await knex()('webhook_attempts').whereIn('message_id', knex()('webhook_messages').select('id').where({ endpoint_id: redirecting.id }));
      expect(redirected).to.include({ outcome: 'FAILED', status_code: 302, error: `the endpoint answered 302: the redirect to ${receiver.url('/sink')} was not followed` });
      const [timedOut] = await knex()('webhook_attempts').whereIn('message_id', knex()('webhook_messages').select('id').where({ endpoint_id: slow.id }));
      expect(timedOut).to.include({ outcome: 'FAILED', status_code: null, error: 'no answer within 1000 ms' });
      expect(timedOut.latency_ms).to.be.within(1_000, 3_000);
      const metrics = await scrape(spec.server);
      expect(sample(metrics, 'venue_webhook_deliveries_total', { result: 'redirect' })).to.be.at.least(1);
      expect(sample(metrics, 'venue_webhook_deliveries_total', { result: 'timeout' })).to.be.at.least(1);
    });
  });

  describe('secret rotation', () => {
    it('signs with both secrets during the overlap, then with the new one only', async () => {
      const { id, secret: old } = await createEndpoint(spec.server, spec.callers.admin, { url: receiver.url('/hooks'), eventTypes: ['inquiry.received'] });
      const rotated = await admin().post(`/api/webhooks/endpoints/${id}/rotate-secret`);
      expect(rotated.status).to.equal(200);
      const fresh: string = rotated.body.secret;
      expect(fresh).to.match(/^whsec_/).and.not.equal(old);
      expect(new Date(rotated.body.endpoint.previousSecretExpiresAt).getTime() - Date.now()).to.be.within(24 * 3_600_000 - 60_000, 24 * 3_600_000);
      expect(rotated.body.endpoint.secretRotatedAt).to.be.a('string');
      receiver.secrets = [old, fresh];

      await sendInquiry(spec.server, 81);
      expect(await runDeliveries(spec.server)).to.deep.equal(['succeeded']);
      const [during] = receiver.requests;
      expect(during.signature.split(' ')).to.have.length(2);
      expect(during.verifiedWith).to.deep.equal([0, 1]);
      for (const secret of [old, fresh]) expect(new Webhook(secret).verify(during.body, { 'webhook-id': during.id, 'webhook-timestamp': during.timestamp, 'webhook-signature': during.signature })).to.deep.equal(JSON.parse(during.body));

      // The overlap ends (the clock): the old secret signs no more.
      await knex()('webhook_endpoints').where({ id }).update({ previous_secret_expires_at: new Date(Date.now() - 1_000) });
      expect((await admin().get(`/api/webhooks/endpoints/${id}`)).body.previousSecretExpiresAt).to.equal(null);
      await sendInquiry(spec.server, 82);
      expect(await runDeliveries(spec.server)).to.deep.equal(['succeeded']);
      const after = receiver.requests[1];
      expect(after.signature.split(' ')).to.have.length(1);
      expect(after.verifiedWith).to.deep.equal([1]);
      const headers = { 'webhook-id': after.id, 'webhook-timestamp': after.timestamp, 'webhook-signature': after.signature };
      expect(() => new Webhook(old).verify(after.body, headers)).to.throw(WebhookVerificationError);
      // A tampered body or an old timestamp fails the receiver's check too.
      expect(() => new Webhook(fresh).verify(after.body.replace('inquiry', 'inquirY'), headers)).to.throw(WebhookVerificationError);
      expect(() => new Webhook(fresh).verify(after.body, { ...headers, 'webhook-timestamp': String(Number(after.timestamp) - 600) })).to.throw(WebhookVerificationError);
    });
  });
});
