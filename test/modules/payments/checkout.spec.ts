import { expect } from 'chai';
import { BANK, callbackFor, checkout, hold, ipn, paymentsSpec, PUBLIC_API, query, queuedRefundJobs, runRefundJob, SECRET, TMN, urlParams } from './helpers.ts';

/**
 * The guest's checkout and VNPay's callbacks (issue 9): options, VNPay / bank transfer / pay at the venue, the
 * IPN's answers (signature, reference, amount, replay), the browser return, and a payment landing after its seats
 * were released.
 */
describe('payments: guest checkout and VNPay callbacks', () => {
  const spec = paymentsSpec();

  describe('GET /api/public/reservations/{reference}/checkout', () => {
    it('answers the enabled methods and the amount due with the token; the same 404 otherwise', async () => {
      const held = await hold(spec.server);
      const res = await spec.server.request<any>('GET', `/api/public/reservations/${held.reference}/checkout`, { headers: { 'x-reservation-token': held.token } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(res.body).to.include({ reference: held.reference, status: 'HELD', payable: true, amountDueVnd: held.totalVnd });
      expect(res.body.methods).to.deep.equal(['VNPAY', 'BANK_TRANSFER', 'PAY_AT_VENUE']);
      await spec.server.db.knex('commercial_setup').update({ payment_gateways: JSON.stringify(['CASH']) });
      const cashOnly = await spec.server.request<any>('GET', `/api/public/reservations/${held.reference}/checkout`, { headers: { 'x-reservation-token': held.token } });
      expect(cashOnly.body.methods).to.deep.equal(['BANK_TRANSFER', 'PAY_AT_VENUE']);
      for (const headers of [{}, { 'x-reservation-token': 'wrong' }] as Array<Record<string, string>>) {
        const missing = await spec.server.request<any>('GET', `/api/public/reservations/${held.reference}/checkout`, { headers });
        expect(missing.status).to.equal(404);
      }
      expect((await spec.server.request<any>('GET', '/api/public/reservations/VN-ZZZZZZ/checkout', { headers: { 'x-reservation-token': held.token } })).status).to.equal(404);
    });
  });

  describe('POST /api/public/reservations/{reference}/checkout', () => {
    it('VNPAY: a PENDING payment per attempt, with a fresh txn ref and a URL VNPay accepts as signed', async () => {
      const held = await hold(spec.server);
      const first = await checkout(spec.server, held, { method: 'VNPAY', locale: 'en', bankCode: 'NCB' });
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      expect(first.headers.get('cache-control')).to.equal('no-store');
      expect(first.body).to.include({ method: 'VNPAY', reference: held.reference, amountVnd: held.totalVnd });
      const page = await (await fetch(first.body.vnpay.paymentUrl)).json();
      expect(page.valid).to.equal(true);
      expect(page.params).to.include({
        vnp_Version: '2.1.0',
        vnp_Command: 'pay',
        vnp_TmnCode: TMN,
        vnp_Amount: String(held.totalVnd * 100),
        vnp_CurrCode: 'VND',
        vnp_TxnRef: first.body.vnpay.txnRef,
        vnp_Locale: 'en',
        vnp_BankCode: 'NCB',
        vnp_ReturnUrl: `${PUBLIC_API}/api/payments/vnpay/return`,
      });
      // The URL expires with the hold, at most 15 minutes ahead.
      expect(new Date(first.body.vnpay.expiresAt).getTime()).to.be.at.most(new Date(first.body.holdExpiresAt).getTime());
      const second = await checkout(spec.server, held, { method: 'VNPAY' });
      expect(second.status).to.equal(201);
      expect(second.body.vnpay.txnRef).not.to.equal(first.body.vnpay.txnRef);
      expect(urlParams(second.body.vnpay.paymentUrl).vnp_Locale).to.equal('vn'); // the guest's locale is vi
      const rows = await spec.server.db.knex('payments').where({ reservation_id: held.id }).orderBy('created_at');
      expect(rows.map((r) => [r.gateway, r.status, r.amount_vnd, r.txn_ref])).to.deep.equal([
        ['VNPAY', 'PENDING', held.totalVnd, first.body.vnpay.txnRef],
        ['VNPAY', 'PENDING', held.totalVnd, second.body.vnpay.txnRef],
      ]);
    });

    it('BANK_TRANSFER quotes the account and one transfer reference; PAY_AT_VENUE records no payment and confirms (pay later: payLater.spec.ts)', async () => {
      const held = await hold(spec.server);
      const first = await checkout(spec.server, held, { method: 'BANK_TRANSFER' });
      expect(first.status).to.equal(201);
      expect(first.body.bankTransfer).to.deep.include({ account: BANK, amountVnd: held.totalVnd, instructionsLocale: 'vi' });
      expect(first.body.bankTransfer.transferReference).to.match(/^BT[0-9A-Z]{10}$/);
      expect(first.body.bankTransfer.payBy).to.equal(first.body.holdExpiresAt);
      const again = await checkout(spec.server, held, { method: 'BANK_TRANSFER' });
      expect(again.body.bankTransfer.transferReference).to.equal(first.body.bankTransfer.transferReference);
      expect(again.body.paymentId).to.equal(first.body.paymentId);
      expect(again.body.holdExpiresAt).to.equal(first.body.holdExpiresAt);

      const other = await hold(spec.server, { who: 2 });
      const venue = await checkout(spec.server, other, { method: 'PAY_AT_VENUE', locale: 'en' });
      expect(venue.status).to.equal(201);
      expect(venue.body).to.include({ paymentId: null, status: 'CONFIRMED', holdExpiresAt: null });
      expect(venue.body.payAtVenue).to.include({ outcome: 'CONFIRMED', amountDueVnd: other.totalVnd, payBy: null, instructionsLocale: 'en' });
      expect(venue.body.payAtVenue.instructions).to.match(/^Your booking is confirmed\. Please pay the amount due/);
      expect(await spec.server.db.knex('payments').where({ reservation_id: other.id })).to.have.length(0);
      expect((await spec.server.db.knex('reservations').where({ id: other.id }).first('status')).status).to.equal('CONFIRMED');
    });

    it('refuses what cannot be paid: an expired hold (409), a confirmed one (409), a disabled method (422), bad input (400), a wrong token (404)', async () => {
      const held = await hold(spec.server);
      expect((await checkout(spec.server, { ...held, token: 'nope' }, { method: 'VNPAY' })).status).to.equal(404);
      const bad = await checkout(spec.server, held, { method: 'BITCOIN' });
      expect(bad.status).to.equal(400);
      expect(bad.body.errors[0].path).to.equal('body/method');
      await spec.server.db.knex('commercial_setup').update({ payment_gateways: JSON.stringify(['VNPAY']) });
      const disabled = await checkout(spec.server, held, { method: 'PAY_AT_VENUE' });
      expect(disabled.status).to.equal(422);
      expect(disabled.body.code).to.equal('payment_method_unavailable');
      expect(disabled.body.errors[0].message).to.include('VNPAY, BANK_TRANSFER');

      await spec.server.db.knex('reservations').where({ id: held.id }).update({ hold_expires_at: new Date(Date.now() - 1000) });
      const expired = await checkout(spec.server, held, { method: 'VNPAY' });
      expect(expired.status).to.equal(409);
      expect(expired.body.code).to.equal('hold_expired');
      await spec.server.db.knex('reservations').where({ id: held.id }).update({ status: 'CONFIRMED', hold_expires_at: null });
      expect((await checkout(spec.server, held, { method: 'VNPAY' })).body.code).to.equal('reservation_already_confirmed');
      expect(await spec.server.db.knex('payments').where({ reservation_id: held.id })).to.have.length(0);
    });
  });

  describe('GET /api/payments/vnpay/ipn', () => {
    it('00: the payment SUCCEEDS and confirms the reservation (check-in token, confirmation e-mail); a replay is 02 and changes nothing', async () => {
      const held = await hold(spec.server);
      const started = await checkout(spec.server, held, { method: 'VNPAY' });
      const params = callbackFor(spec.vnpay, started.body.vnpay.paymentUrl);
      const res = await ipn(spec.server, params);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ RspCode: '00', Message: 'Confirm Success' });
      const payment = await spec.server.db.knex('payments').where({ id: started.body.paymentId }).first();
      expect(payment).to.include({ status: 'SUCCEEDED', gateway_transaction_id: '14226112', bank_code: 'NCB', card_type: 'ATM', gateway_response_code: '00' });
      expect(new Date(payment.gateway_paid_at).toISOString()).to.equal('2026-11-23T14:05:01.000Z');
      const reservation = await spec.server.db.knex('reservations').where({ id: held.id }).first();
      expect(reservation).to.include({ status: 'CONFIRMED', confirmed_by: 'PAYMENT' });
      expect(reservation.check_in_token_hash).to.not.equal(null);
      const emails = await spec.server.db.knex('email_messages').where({ reservation_id: held.id });
      expect(emails.map((e) => e.template)).to.deep.equal(['reservation-confirmation']);

      const replay = await ipn(spec.server, params);
      expect(replay.body).to.deep.equal({ RspCode: '02', Message: 'Order already confirmed' });
      expect(await spec.server.db.knex('payments').where({ id: started.body.paymentId }).first()).to.deep.equal(payment);
      expect(await spec.server.db.knex('reservations').where({ id: held.id }).first()).to.deep.equal(reservation);
      expect(await spec.server.db.knex('email_messages').where({ reservation_id: held.id })).to.have.length(1);
      const audit = await spec.server.db.knex('payment_callbacks').where({ payment_id: started.body.paymentId }).orderBy('id');
      expect(audit.map((a) => [a.kind, a.signature_valid, a.outcome])).to.deep.equal([
        ['IPN', true, '00'],
        ['IPN', true, '02'],
      ]);
      expect(audit[0].params.vnp_TxnRef).to.equal(started.body.vnpay.txnRef);
    });

    it('97 bad signature (another secret, a tampered amount, none), 01 unknown reference, 04 wrong amount: nothing changes, every call audited', async () => {
      const held = await hold(spec.server);
      const started = await checkout(spec.server, held, { method: 'VNPAY' });
      const good = callbackFor(spec.vnpay, started.body.vnpay.paymentUrl);
      const forged = callbackFor(spec.vnpay, started.body.vnpay.paymentUrl, {}, `${SECRET}x`);
      const tampered = { ...good, vnp_Amount: '100' };
      const { vnp_SecureHash: _dropped, ...unsigned } = good;
      for (const params of [forged, tampered, unsigned]) {
        expect((await ipn(spec.server, params)).body).to.deep.equal({ RspCode: '97', Message: 'Invalid signature' });
      }
      const unknown = callbackFor(spec.vnpay, started.body.vnpay.paymentUrl, { vnp_TxnRef: 'NOPE-12345678' });
      expect((await ipn(spec.server, unknown)).body.RspCode).to.equal('01');
      const wrongAmount = callbackFor(spec.vnpay, started.body.vnpay.paymentUrl, { vnp_Amount: String((held.totalVnd - 1) * 100) });
      expect((await ipn(spec.server, wrongAmount)).body.RspCode).to.equal('04');
      expect((await spec.server.db.knex('payments').where({ id: started.body.paymentId }).first()).status).to.equal('PENDING');
      expect((await spec.server.db.knex('reservations').where({ id: held.id }).first()).status).to.equal('HELD');
      const audit = await spec.server.db.knex('payment_callbacks').whereIn('txn_ref', [started.body.vnpay.txnRef, 'NOPE-12345678']).orderBy('id');
      expect(audit.map((a) => [a.signature_valid, a.outcome])).to.deep.equal([
        [false, '97'],
        [false, '97'],
        [false, '97'],
        [true, '01'],
        [true, '04'],
      ]);
      // Then the real one still goes through.
      expect((await ipn(spec.server, good)).body.RspCode).to.equal('00');
    });

    it('a failure code marks the payment FAILED (the reservation stays HELD and can try again)', async () => {
      const held = await hold(spec.server);
      const started = await checkout(spec.server, held, { method: 'VNPAY' });
      const res = await ipn(spec.server, callbackFor(spec.vnpay, started.body.vnpay.paymentUrl, { vnp_ResponseCode: '24', vnp_TransactionStatus: '02' }));
      expect(res.body.RspCode).to.equal('00');
      const payment = await spec.server.db.knex('payments').where({ id: started.body.paymentId }).first();
      expect(payment).to.include({ status: 'FAILED', gateway_response_code: '24' });
      expect(payment.failed_at).to.not.equal(null);
      expect((await spec.server.db.knex('reservations').where({ id: held.id }).first()).status).to.equal('HELD');
      expect((await checkout(spec.server, held, { method: 'VNPAY' })).status).to.equal(201);
    });

    it('a payment after the hold ran out confirms while seats are free; once they are gone (seats_released) the money is kept and refunded in full', async () => {
      // Seats still free: it confirms.
      const late = await hold(spec.server);
      const lateCheckout = await checkout(spec.server, late, { method: 'VNPAY' });
      await spec.server.db.knex('reservations').where({ id: late.id }).update({ status: 'EXPIRED', expired_at: new Date(), hold_expires_at: new Date(Date.now() - 1000) });
      expect((await ipn(spec.server, callbackFor(spec.vnpay, lateCheckout.body.vnpay.paymentUrl))).body.RspCode).to.equal('00');
      expect((await spec.server.db.knex('reservations').where({ id: late.id }).first()).status).to.equal('CONFIRMED');

      // Seats gone: kept and refunded.
      const first = await hold(spec.server, { capacity: 2, guests: 2 });
      const started = await checkout(spec.server, first, { method: 'VNPAY' });
      await spec.server.db.knex('reservations').where({ id: first.id }).update({ hold_expires_at: new Date(Date.now() - 1000) });
      const event = await spec.server.db.knex('show_events').where({ id: first.eventId }).first('slug');
      const offer = await spec.server.db.knex('reservations as r').join('offers as o', 'o.id', 'r.offer_id').where('r.id', first.id).first('o.code');
      await hold(spec.server, { guests: 2, eventSlug: event.slug, offerCode: offer.code, who: 3 });
      const res = await ipn(spec.server, callbackFor(spec.vnpay, started.body.vnpay.paymentUrl));
      expect(res.body.RspCode).to.equal('00');
      const payment = await spec.server.db.knex('payments').where({ id: started.body.paymentId }).first();
      expect(payment.status).to.equal('SUCCEEDED');
      expect((await spec.server.db.knex('reservations').where({ id: first.id }).first()).status).to.equal('HELD');
      const [refund] = await spec.server.db.knex('refunds').where({ payment_id: payment.id });
      expect(refund).to.include({ status: 'PENDING', amount_vnd: first.totalVnd, requested_by: 'SYSTEM' });
      expect(refund.reason).to.match(/^seats_released/);
      expect(await queuedRefundJobs(spec.server)).to.include(refund.id);

      // The durable job sends it to VNPay (signed), and the payment is REFUNDED.
      expect(await runRefundJob(spec.server, refund.id)).to.deep.equal({ status: 'SUCCEEDED' });
      expect(spec.vnpay.apiRequests).to.have.length(1);
      expect(spec.vnpay.apiRequests[0].checksumOk).to.equal(true);
      expect(spec.vnpay.apiRequests[0].body).to.include({ vnp_Command: 'refund', vnp_TransactionType: '02', vnp_TxnRef: payment.txn_ref, vnp_Amount: String(first.totalVnd * 100), vnp_TransactionNo: '14226112' });
      expect(await spec.server.db.knex('payments').where({ id: payment.id }).first()).to.include({ status: 'REFUNDED', refunded_vnd: first.totalVnd });
      // Run again (a retried job): nothing more is sent.
      expect(await runRefundJob(spec.server, refund.id)).to.deep.equal({ status: 'SUCCEEDED' });
      expect(spec.vnpay.apiRequests).to.have.length(1);
    });
    it('the same IPN twice at once: one 00, one 02, one confirmation @db', async () => {
      const held = await hold(spec.server);
      const started = await checkout(spec.server, held, { method: 'VNPAY' });
      const params = callbackFor(spec.vnpay, started.body.vnpay.paymentUrl);
      const answers = await Promise.all([ipn(spec.server, params), ipn(spec.server, params)]);
      expect(answers.map((a) => a.body.RspCode).sort()).to.deep.equal(['00', '02']);
      expect(await spec.server.db.knex('email_messages').where({ reservation_id: held.id })).to.have.length(1);
    });

    it('a payment for a reservation cancelled meanwhile, or already paid by another attempt, is kept and refunded', async () => {
      const held = await hold(spec.server);
      const started = await checkout(spec.server, held, { method: 'VNPAY' });
      const cancelled = await spec.server.request<any>('POST', `/api/public/reservations/${held.reference}/cancel`, { headers: { 'x-reservation-token': held.token } });
      expect(cancelled.status).to.equal(200);
      expect((await ipn(spec.server, callbackFor(spec.vnpay, started.body.vnpay.paymentUrl))).body.RspCode).to.equal('00');
      const [refund] = await spec.server.db.knex('refunds').where({ payment_id: started.body.paymentId });
      expect(refund).to.include({ status: 'PENDING', amount_vnd: held.totalVnd });
      expect(refund.reason).to.match(/^reservation_cancelled/);

      const twice = await hold(spec.server, { who: 2 });
      const a = await checkout(spec.server, twice, { method: 'VNPAY' });
      const b = await checkout(spec.server, twice, { method: 'VNPAY' });
      expect((await ipn(spec.server, callbackFor(spec.vnpay, a.body.vnpay.paymentUrl))).body.RspCode).to.equal('00');
      expect((await ipn(spec.server, callbackFor(spec.vnpay, b.body.vnpay.paymentUrl, { vnp_TransactionNo: '14226999' }))).body.RspCode).to.equal('00');
      expect(await spec.server.db.knex('refunds').where({ payment_id: a.body.paymentId })).to.have.length(0);
      const [duplicate] = await spec.server.db.knex('refunds').where({ payment_id: b.body.paymentId });
      expect(duplicate).to.include({ status: 'PENDING', amount_vnd: twice.totalVnd });
      expect(duplicate.reason).to.match(/^already_paid/);
    });
  });

  describe('GET /api/payments/vnpay/return', () => {
    it('shows the verified result and our record, changes nothing, and is audited; a forged return says invalid', async () => {
      const held = await hold(spec.server);
      const started = await checkout(spec.server, held, { method: 'VNPAY' });
      const params = callbackFor(spec.vnpay, started.body.vnpay.paymentUrl);
      const before = await spec.server.request<any>('GET', `/api/payments/vnpay/return?${query(params)}`);
      expect(before.status).to.equal(200);
      expect(before.body).to.deep.equal({ valid: true, gatewaySuccess: true, responseCode: '00', paymentStatus: 'PENDING', reservationReference: held.reference, reservationStatus: 'HELD' });
      expect((await spec.server.db.knex('payments').where({ id: started.body.paymentId }).first()).status).to.equal('PENDING');
      await ipn(spec.server, params);
      const after = await spec.server.request<any>('GET', `/api/payments/vnpay/return?${query(params)}`);
      expect(after.body).to.include({ paymentStatus: 'SUCCEEDED', reservationStatus: 'CONFIRMED' });
      const forged = await spec.server.request<any>('GET', `/api/payments/vnpay/return?${query({ ...params, vnp_ResponseCode: '00', vnp_Amount: '1' })}`);
      expect(forged.body).to.deep.equal({ valid: false, gatewaySuccess: false, responseCode: null, paymentStatus: null, reservationReference: null, reservationStatus: null });
      const audit = await spec.server.db.knex('payment_callbacks').where({ kind: 'RETURN', txn_ref: started.body.vnpay.txnRef }).orderBy('id');
      expect(audit.map((a) => [a.signature_valid, a.outcome])).to.deep.equal([
        [true, '00'],
        [true, '00'],
        [false, '97'],
      ]);
    });

    it('a browser navigating back is sent on (303) to the public site\'s return page with the same signed query', async () => {
      const held = await hold(spec.server);
      const started = await checkout(spec.server, held, { method: 'VNPAY' });
      const params = callbackFor(spec.vnpay, started.body.vnpay.paymentUrl);
      const html = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
      const back = await spec.server.request<any>('GET', `/api/payments/vnpay/return?${query(params)}`, { headers: { accept: html } });
      expect(back.status).to.equal(303);
      expect(back.headers.get('cache-control')).to.equal('no-store');
      const location = new URL(back.headers.get('location')!);
      const site = new URL(spec.server.config.publicSiteUrl);
      expect(location.origin).to.equal(site.origin);
      // The hold's locale (the booking factory's contact is Vietnamese) picks the site's page.
      expect(location.pathname).to.equal('/vi/payment/return');
      expect(Object.fromEntries(location.searchParams)).to.deep.equal(params);
      // What the page then asks, as a fetch: the JSON verdict.
      const forwarded = await spec.server.request<any>('GET', `/api/payments/vnpay/return${location.search}`, { headers: { accept: 'application/json' } });
      expect(forwarded.body).to.deep.include({ valid: true, reservationReference: held.reference });
      // An unknown transaction: the site's default locale.
      const unknown = await spec.server.request<any>('GET', `/api/payments/vnpay/return?${query({ ...params, vnp_TxnRef: 'NOPE-1' })}`, { headers: { accept: html } });
      expect(new URL(unknown.headers.get('location')!).pathname).to.equal(`/${spec.server.config.defaultLocale}/payment/return`);
    });
  });
});

describe('payments: checkout with VNPay not configured', () => {
  const spec = paymentsSpec({ vnpay: false, bank: false, cash: false });

  it('VNPAY is 422 payment_method_unavailable naming the enabled methods (none here), never a fake success', async () => {
    const held = await hold(spec.server);
    const res = await checkout(spec.server, held, { method: 'VNPAY' });
    expect(res.status).to.equal(422);
    expect(res.body.code).to.equal('payment_method_unavailable');
    expect(res.body.errors[0]).to.include({ path: 'body/method', message: 'is not enabled; enabled methods: none' });
    expect(await spec.server.db.knex('payments')).to.have.length(0);
    const options = await spec.server.request<any>('GET', `/api/public/reservations/${held.reference}/checkout`, { headers: { 'x-reservation-token': held.token } });
    expect(options.body).to.include({ payable: false });
    expect(options.body.methods).to.deep.equal([]);
    // Nothing verifies without the secret.
    const ipnRes = await spec.server.request<any>('GET', '/api/payments/vnpay/ipn?vnp_TxnRef=X&vnp_SecureHash=00');
    expect(ipnRes.body.RspCode).to.equal('97');
  });
});
