import { expect } from 'chai';
import { subscriber, type DomainContext, type PaymentOutcomeEvent } from '../../../server/domain/events.ts';
import { callbackFor, checkout, hold, paidByVnpay, paymentsSpec, queuedRefundJobs, runRefundJob } from './helpers.ts';
import { apiKeyWith, catalogCallers, type CatalogCallers, MISSING_ID, requestsAs } from '../shows/catalog.ts';

/**
 * The admin side of payments (issue 9): on-site payments, the payment and refund lists, refunds (VNPay through
 * its refund API against the fake; on-site recorded), refunds on cancellation, and two refunds racing.
 */
describe('payments: admin routes, refunds and cancellations', () => {
  const spec = paymentsSpec();
  let callers: CatalogCallers;
  before(async () => {
    callers = await catalogCallers();
  });
  const admin = () => requestsAs(spec.server, callers.admin);
  const staff = () => requestsAs(spec.server, callers.staff);
  const anonymous = () => requestsAs(spec.server, {});

  it('anonymous callers get 401 and staff 403 on every admin operation; API keys need payments:* permissions', async () => {
    const { paymentId } = await paidByVnpay(spec);
    expect((await admin().post(`/api/payments/${paymentId}/refunds`, { amountVnd: 1000, reason: 'probe' })).status).to.equal(201);
    const [refund] = await spec.server.db.knex('refunds').where({ payment_id: paymentId });
    const calls = [
      (as: ReturnType<typeof admin>) => as.get('/api/payments'),
      (as: ReturnType<typeof admin>) => as.post('/api/payments', { reservationId: MISSING_ID, method: 'CASH' }),
      (as: ReturnType<typeof admin>) => as.get(`/api/payments/${paymentId}`),
      (as: ReturnType<typeof admin>) => as.post(`/api/payments/${paymentId}/refunds`, { amountVnd: 1000, reason: 'x' }),
      (as: ReturnType<typeof admin>) => as.get('/api/refunds'),
      (as: ReturnType<typeof admin>) => as.post(`/api/refunds/${refund.id}/complete`),
    ];
    for (const call of calls) {
      expect((await call(anonymous())).status).to.equal(401);
      expect((await call(staff())).status).to.equal(403);
    }
    expect(await spec.server.db.knex('refunds').where({ payment_id: paymentId })).to.have.length(1);
    const reader = requestsAs(spec.server, await apiKeyWith('payments:read'));
    expect((await reader.get(`/api/payments/${paymentId}`)).status).to.equal(200);
    const refused = await reader.post(`/api/payments/${paymentId}/refunds`, { amountVnd: 1000, reason: 'x' });
    expect(refused.status).to.equal(403);
    expect(refused.body.code).to.equal('missing_permission');
    expect((await requestsAs(spec.server, await apiKeyWith('payments:refund')).post(`/api/payments/${paymentId}/refunds`, { amountVnd: 1000, reason: 'key' })).status).to.equal(201);
  });

  it('runs the payment hooks in the command\'s transaction for each outcome, once (a replayed IPN calls none)', async () => {
    const calls: Array<[string, string, number, number]> = [];
    const seen = (outcome: string) => (payment: PaymentOutcomeEvent, context: DomainContext) => {
      expect(context.trx.isTransaction).to.equal(true);
      calls.push([outcome, payment.gateway, payment.amountVnd, payment.refundedVnd]);
    };
    const events = { SUCCEEDED: 'payment.captured', FAILED: 'payment.failed', PARTIALLY_REFUNDED: 'payment.partiallyRefunded', REFUNDED: 'payment.refunded' } as const;
    const removals = Object.entries(events).map(([outcome, event]) =>
      spec.server.app.context.events.attachForTest(subscriber({ name: `test.${outcome}`, event, phase: 'in-transaction', order: 1000, handle: seen(outcome) })),
    );
    try {
      const { held, paymentId, paymentUrl } = await paidByVnpay(spec);
      await spec.server.request('GET', `/api/payments/vnpay/ipn?${new URLSearchParams(callbackFor(spec.vnpay, paymentUrl)).toString()}`);
      await admin().post(`/api/payments/${paymentId}/refunds`, { amountVnd: 1_000, reason: 'part' });
      await admin().post(`/api/payments/${paymentId}/refunds`, { amountVnd: held.totalVnd - 1_000, reason: 'rest' });
      const other = await hold(spec.server, { who: 2 });
      const started = await checkout(spec.server, other, { method: 'VNPAY' });
      await spec.server.request('GET', `/api/payments/vnpay/ipn?${new URLSearchParams(callbackFor(spec.vnpay, started.body.vnpay.paymentUrl, { vnp_ResponseCode: '11', vnp_TransactionStatus: '02' })).toString()}`);
      expect(calls).to.deep.equal([
        ['SUCCEEDED', 'VNPAY', held.totalVnd, 0],
        ['PARTIALLY_REFUNDED', 'VNPAY', held.totalVnd, 1_000],
        ['REFUNDED', 'VNPAY', held.totalVnd, held.totalVnd],
        ['FAILED', 'VNPAY', other.totalVnd, 0],
      ]);
    } finally {
      removals.forEach((remove) => remove());
    }
  });

  describe('POST /api/payments (on-site payments)', () => {
    it('CASH of what is due confirms a HELD reservation; a part payment records without confirming; more than due is 422, nothing due is 409', async () => {
      const held = await hold(spec.server);
      const part = await admin().post('/api/payments', { reservationId: held.id, method: 'CARD_ON_SITE', amountVnd: 1_000_000, note: 'deposit slip 42' });
      expect(part.status, JSON.stringify(part.body)).to.equal(201);
      expect(part.body).to.include({ gateway: 'CARD_ON_SITE', status: 'SUCCEEDED', amountVnd: 1_000_000, reservationReference: held.reference, note: 'deposit slip 42' });
      expect(part.body.recordedBy).to.be.a('string');
      expect((await spec.server.db.knex('reservations').where({ id: held.id }).first()).status).to.equal('HELD');
      const tooMuch = await admin().post('/api/payments', { reservationId: held.id, method: 'CASH', amountVnd: held.totalVnd });
      expect(tooMuch.status).to.equal(422);
      expect(tooMuch.body.code).to.equal('amount_exceeds_balance');
      const rest = await admin().post('/api/payments', { reservationId: held.id, method: 'CASH' });
      expect(rest.status).to.equal(201);
      expect(rest.body.amountVnd).to.equal(held.totalVnd - 1_000_000);
      const reservation = await spec.server.db.knex('reservations').where({ id: held.id }).first();
      expect(reservation).to.include({ status: 'CONFIRMED', confirmed_by: 'PAYMENT' });
      expect(await spec.server.db.knex('email_messages').where({ reservation_id: held.id, template: 'reservation-confirmation' })).to.have.length(1);
      const nothing = await admin().post('/api/payments', { reservationId: held.id, method: 'CASH' });
      expect(nothing.status).to.equal(409);
      expect(nothing.body.code).to.equal('nothing_to_pay');
      expect((await admin().post('/api/payments', { reservationId: MISSING_ID, method: 'CASH' })).status).to.equal(404);
      expect((await admin().post('/api/payments', { reservationId: held.id, method: 'VNPAY' })).status).to.equal(400);
    });

    it('a BANK_TRANSFER settles the guest\'s pending transfer reference; a cancelled reservation is 409; an expired hold whose seats are gone is 409 seats_released with nothing recorded', async () => {
      const held = await hold(spec.server);
      const quoted = await checkout(spec.server, held, { method: 'BANK_TRANSFER' });
      const res = await admin().post('/api/payments', { reservationId: held.id, method: 'BANK_TRANSFER', note: 'VCB 12:04' });
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ id: quoted.body.paymentId, txnRef: quoted.body.bankTransfer.transferReference, status: 'SUCCEEDED' });
      expect(await spec.server.db.knex('payments').where({ reservation_id: held.id })).to.have.length(1);

      const cancelled = await hold(spec.server, { who: 2 });
      await spec.server.db.knex('reservations').where({ id: cancelled.id }).update({ status: 'CANCELLED', cancelled_at: new Date() });
      expect((await admin().post('/api/payments', { reservationId: cancelled.id, method: 'CASH' })).body.code).to.equal('reservation_not_payable');

      const expired = await hold(spec.server, { capacity: 2, guests: 2, who: 3 });
      await spec.server.db.knex('reservations').where({ id: expired.id }).update({ hold_expires_at: new Date(Date.now() - 1000) });
      const event = await spec.server.db.knex('show_events').where({ id: expired.eventId }).first('slug');
      const offer = await spec.server.db.knex('reservations as r').join('offers as o', 'o.id', 'r.offer_id').where('r.id', expired.id).first('o.code');
      await hold(spec.server, { guests: 2, eventSlug: event.slug, offerCode: offer.code, who: 4 });
      const released = await admin().post('/api/payments', { reservationId: expired.id, method: 'CASH' });
      expect(released.status).to.equal(409);
      expect(released.body.code).to.equal('seats_released');
      expect(await spec.server.db.knex('payments').where({ reservation_id: expired.id })).to.have.length(0);
    });
  });

  describe('GET /api/payments and GET /api/payments/{paymentId}', () => {
    it('lists newest first with filters and paging; one payment comes with its refunds and audited callbacks', async () => {
      const a = await paidByVnpay(spec);
      const b = await hold(spec.server, { who: 2 });
      await admin().post('/api/payments', { reservationId: b.id, method: 'CASH' });
      const mine = await admin().get(`/api/payments?reservationId=${a.held.id}`);
      expect(mine.status).to.equal(200);
      expect(mine.body.total).to.equal(1);
      expect(mine.body.items[0]).to.include({ id: a.paymentId, gateway: 'VNPAY', status: 'SUCCEEDED', reservationReference: a.held.reference });
      const cash = await admin().get('/api/payments?gateway=CASH&status=SUCCEEDED&limit=1');
      expect(cash.body.items.every((p: any) => p.gateway === 'CASH' && p.status === 'SUCCEEDED')).to.equal(true);
      expect(cash.body.items).to.have.length(1);
      const all = await admin().get('/api/payments?limit=2&offset=0');
      const next = await admin().get('/api/payments?limit=2&offset=2');
      expect(all.body.total).to.be.at.least(2);
      const ids = [...all.body.items, ...next.body.items].map((p: any) => p.id);
      expect(new Set(ids).size).to.equal(ids.length);
      const times = all.body.items.map((p: any) => Date.parse(p.createdAt));
      expect(times[0]).to.be.at.least(times[1]);
      const future = await admin().get(`/api/payments?from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`);
      expect(future.body.total).to.equal(0);
      expect((await admin().get('/api/payments?status=NOPE')).status).to.equal(400);

      await admin().post(`/api/payments/${a.paymentId}/refunds`, { amountVnd: 500_000, reason: 'goodwill' });
      const one = await admin().get(`/api/payments/${a.paymentId}`);
      expect(one.status).to.equal(200);
      expect(one.body.payment).to.include({ id: a.paymentId, refundedVnd: 500_000, status: 'PARTIALLY_REFUNDED' });
      expect(one.body.refunds.map((r: any) => [r.amountVnd, r.status])).to.deep.equal([[500_000, 'SUCCEEDED']]);
      expect(one.body.callbacks.map((c: any) => [c.kind, c.signatureValid, c.outcome])).to.deep.equal([['IPN', true, '00']]);
      expect((await admin().get(`/api/payments/${MISSING_ID}`)).status).to.equal(404);
    });
  });

  describe('POST /api/payments/{paymentId}/refunds and GET /api/refunds', () => {
    it('VNPay: a signed partial then full refund through VNPay\'s API; the payment follows; more than is left is 422', async () => {
      const { held, paymentId } = await paidByVnpay(spec);
      const partial = await admin().post(`/api/payments/${paymentId}/refunds`, { amountVnd: 1_000_000, reason: 'one guest fewer' });
      expect(partial.status, JSON.stringify(partial.body)).to.equal(201);
      expect(partial.body).to.include({ status: 'SUCCEEDED', amountVnd: 1_000_000, gatewayRefundId: '14226112', gatewayResponseCode: '00', attempts: 1 });
      expect(spec.vnpay.apiRequests).to.have.length(1);
      const [sent] = spec.vnpay.apiRequests;
      expect(sent.checksumOk).to.equal(true);
      expect(sent.body).to.include({ vnp_Command: 'refund', vnp_TransactionType: '03', vnp_Amount: '100000000', vnp_TransactionNo: '14226112', vnp_TmnCode: 'VENUE001' });
      expect(await spec.server.db.knex('payments').where({ id: paymentId }).first()).to.include({ status: 'PARTIALLY_REFUNDED', refunded_vnd: 1_000_000 });

      const tooMuch = await admin().post(`/api/payments/${paymentId}/refunds`, { amountVnd: held.totalVnd, reason: 'all' });
      expect(tooMuch.status).to.equal(422);
      expect(tooMuch.body.code).to.equal('refund_exceeds_remaining');
      const rest = await admin().post(`/api/payments/${paymentId}/refunds`, { amountVnd: held.totalVnd - 1_000_000, reason: 'the rest' });
      expect(rest.body.status).to.equal('SUCCEEDED');
      expect(await spec.server.db.knex('payments').where({ id: paymentId }).first()).to.include({ status: 'REFUNDED', refunded_vnd: held.totalVnd });
      const again = await admin().post(`/api/payments/${paymentId}/refunds`, { amountVnd: 1, reason: 'x' });
      expect(again.status).to.equal(409);
      expect(again.body.code).to.equal('payment_not_refundable');

      const listed = await admin().get(`/api/refunds?paymentId=${paymentId}`);
      expect(listed.body.total).to.equal(2);
      expect(listed.body.items.map((r: any) => r.amountVnd)).to.have.members([1_000_000, held.totalVnd - 1_000_000]);
      expect((await admin().get(`/api/refunds?paymentId=${paymentId}&status=FAILED`)).body.total).to.equal(0);
      expect((await admin().post(`/api/payments/${MISSING_ID}/refunds`, { amountVnd: 1, reason: 'x' })).status).to.equal(404);
      expect((await admin().post(`/api/payments/${paymentId}/refunds`, { amountVnd: 0, reason: 'x' })).status).to.equal(400);
    });

    it('a refund that was recorded answers 201 even when sending it fails unexpectedly after the commit (issue 32 §4); the job sends it later', async () => {
      const { paymentId } = await paidByVnpay(spec);
      const knex = spec.server.db.knex;
      // The claim before the send is the first write after the commit: make the database refuse it.
      await knex.raw(`create or replace function refuse_refund_claim() returns trigger language plpgsql as $$ begin
        if new.processing_until is not null then raise exception 'refund claims refused by the test'; end if; return new; end $$`);
      await knex.raw('create trigger refuse_refund_claim before update on refunds for each row execute function refuse_refund_claim()');
      try {
        const res = await admin().post(`/api/payments/${paymentId}/refunds`, { amountVnd: 1_000, reason: 'after-commit failure' });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        expect(res.body).to.include({ status: 'PENDING', amountVnd: 1_000 });
        expect(await knex('refunds').where({ id: res.body.id }).first()).to.include({ status: 'PENDING' });
        expect(await queuedRefundJobs(spec.server)).to.include(res.body.id);
        expect(spec.server.logs.some((line) => line.refundId === res.body.id && /stays pending for the retry job/.test(line.msg))).to.equal(true);
      } finally {
        await knex.raw('drop trigger if exists refuse_refund_claim on refunds');
        await knex.raw('drop function if exists refuse_refund_claim()');
      }
    });

    it('VNPay declines: FAILED and the amount is free again; no trustworthy answer: PENDING, and the job sends it later', async () => {
      const { paymentId } = await paidByVnpay(spec);
      spec.vnpay.state.mode = 'refund-declined';
      const declined = await admin().post(`/api/payments/${paymentId}/refunds`, { amountVnd: 2_000_000, reason: 'x' });
      expect(declined.body.status).to.equal('FAILED');
      expect(declined.body.failureReason).to.include('95');
      expect((await spec.server.db.knex('payments').where({ id: paymentId }).first()).status).to.equal('SUCCEEDED');

      spec.vnpay.state.mode = 'bad-response-hash';
      const untrusted = await admin().post(`/api/payments/${paymentId}/refunds`, { amountVnd: 2_000_000, reason: 'y' });
      expect(untrusted.body.status).to.equal('PENDING');
      expect(untrusted.body.failureReason).to.match(/signature/);
      expect(await queuedRefundJobs(spec.server)).to.include(untrusted.body.id);
      // While it is pending, its amount is taken.
      const left = (await spec.server.db.knex('payments').where({ id: paymentId }).first()).amount_vnd - 2_000_000;
      expect((await admin().post(`/api/payments/${paymentId}/refunds`, { amountVnd: left + 1, reason: 'z' })).body.code).to.equal('refund_exceeds_remaining');
      spec.vnpay.state.mode = 'http-500';
      let failedRun: Error | undefined;
      await runRefundJob(spec.server, untrusted.body.id).catch((err: Error) => (failedRun = err));
      expect(failedRun?.message).to.match(/retrying/);
      spec.vnpay.state.mode = 'ok';
      expect(await runRefundJob(spec.server, untrusted.body.id)).to.deep.equal({ status: 'SUCCEEDED' });
      expect((await spec.server.db.knex('refunds').where({ id: untrusted.body.id }).first()).attempts).to.equal(3);
      expect(await spec.server.db.knex('payments').where({ id: paymentId }).first()).to.include({ status: 'PARTIALLY_REFUNDED', refunded_vnd: 2_000_000 });
    });

    it('on-site payments are refunded by staff: recorded SUCCEEDED at once, no VNPay call', async () => {
      const held = await hold(spec.server);
      const paid = await admin().post('/api/payments', { reservationId: held.id, method: 'CASH' });
      const res = await admin().post(`/api/payments/${paid.body.id}/refunds`, { amountVnd: held.totalVnd, reason: 'changed plans' });
      expect(res.status).to.equal(201);
      expect(res.body.status).to.equal('SUCCEEDED');
      expect(spec.vnpay.apiRequests).to.have.length(0);
      expect(await spec.server.db.knex('payments').where({ id: paid.body.id }).first()).to.include({ status: 'REFUNDED', refunded_vnd: held.totalVnd });
    });

    it('two refunds at once never give back more than was paid @db', async () => {
      for (const via of ['VNPAY', 'CASH'] as const) {
        let paymentId: string;
        let total: number;
        if (via === 'VNPAY') {
          const paid = await paidByVnpay(spec);
          paymentId = paid.paymentId;
          total = paid.held.totalVnd;
        } else {
          const held = await hold(spec.server);
          paymentId = (await admin().post('/api/payments', { reservationId: held.id, method: 'CASH' })).body.id;
          total = held.totalVnd;
        }
        const share = Math.floor(total * 0.6);
        const answers = await Promise.all([1, 2, 3].map((n) => admin().post(`/api/payments/${paymentId}/refunds`, { amountVnd: share, reason: `race ${n}` })));
        expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 422, 422]);
        const payment = await spec.server.db.knex('payments').where({ id: paymentId }).first();
        expect(payment.refunded_vnd).to.equal(share);
        const refunds = await spec.server.db.knex('refunds').where({ payment_id: paymentId });
        expect(refunds).to.have.length(1);
      }
    });
  });

  describe('refunds on cancellation, and POST /api/refunds/{refundId}/complete', () => {
    it('a guest cancelling a VNPay-paid reservation requests a refund of what is left, once; the job sends it', async () => {
      const { held, paymentId } = await paidByVnpay(spec);
      await admin().post(`/api/payments/${paymentId}/refunds`, { amountVnd: 500_000, reason: 'goodwill' });
      const cancel = () => spec.server.request<any>('POST', `/api/public/reservations/${held.reference}/cancel`, { headers: { 'x-reservation-token': held.token }, body: { reason: 'sick' } });
      expect((await cancel()).status).to.equal(200);
      expect((await cancel()).status).to.equal(200);
      const refunds = await spec.server.db.knex('refunds').where({ payment_id: paymentId }).orderBy('created_at');
      expect(refunds.map((r) => [r.amount_vnd, r.status, r.requested_by])).to.deep.equal([
        [500_000, 'SUCCEEDED', refunds[0].requested_by],
        [held.totalVnd - 500_000, 'PENDING', 'SYSTEM'],
      ]);
      expect(refunds[1].reason).to.equal('reservation_cancelled: sick');
      expect(await runRefundJob(spec.server, refunds[1].id)).to.deep.equal({ status: 'SUCCEEDED' });
      expect(await spec.server.db.knex('payments').where({ id: paymentId }).first()).to.include({ status: 'REFUNDED', refunded_vnd: held.totalVnd });
      const complete = await admin().post(`/api/refunds/${refunds[1].id}/complete`);
      expect(complete.status).to.equal(409);
      expect(complete.body.code).to.equal('refund_via_gateway');
    });

    it('a cancelled cash-paid reservation waits PENDING until staff hand the money back (complete: SUCCEEDED, idempotent)', async () => {
      const held = await hold(spec.server);
      const paid = await admin().post('/api/payments', { reservationId: held.id, method: 'CASH' });
      const cancelled = await spec.server.request<any>('POST', `/api/public/reservations/${held.reference}/cancel`, { headers: { 'x-reservation-token': held.token } });
      expect(cancelled.status).to.equal(200);
      const [refund] = await spec.server.db.knex('refunds').where({ payment_id: paid.body.id });
      expect(refund).to.include({ status: 'PENDING', amount_vnd: held.totalVnd, requested_by: 'SYSTEM' });
      expect(await queuedRefundJobs(spec.server)).not.to.include(refund.id);
      const pending = await admin().get('/api/refunds?status=PENDING');
      expect(pending.body.items.map((r: any) => r.id)).to.include(refund.id);
      const done = await admin().post(`/api/refunds/${refund.id}/complete`);
      expect(done.status).to.equal(200);
      expect(done.body).to.include({ id: refund.id, status: 'SUCCEEDED' });
      const again = await admin().post(`/api/refunds/${refund.id}/complete`);
      expect(again.body).to.deep.equal(done.body);
      expect(await spec.server.db.knex('payments').where({ id: paid.body.id }).first()).to.include({ status: 'REFUNDED', refunded_vnd: held.totalVnd });
      expect((await admin().post(`/api/refunds/${MISSING_ID}/complete`)).status).to.equal(404);
    });
  });
});
