import { expect } from 'chai';
import { deliverGiftVoucher } from '../../../server/modules/giftVouchers/commands/deliverGiftVoucher.ts';
import { GIFT_VOUCHER_DELIVER_QUEUE } from '../../../server/modules/giftVouchers/jobs.ts';
import { atLocal } from '../../../server/domain/venueTime.ts';
import { bookableEvent, contact } from '../booking/factories.ts';
import { catalogCallers, MISSING_ID, requestsAs, type CatalogCallers } from '../shows/catalog.ts';
import { createEndpoint, runDeliveries, webhookEventValidator, webhooksConfig } from '../webhooks/helpers.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { fromNewAddress, ipn, paymentsSpec, runRefundJob } from '../payments/helpers.ts';
import { checkout, daysAhead, hasPdftotext, order, paidOrder, pdfBytesText, purchase, purchaseBody, today, ZONE } from './helpers.ts';

/**
 * Gift vouchers sold online (issue 36 §1): the public purchase (terms checked, fields named, Idempotency-Key), the
 * order read by its token, the `voucher_order` payable paid through payments' checkout and VNPay's signed IPN (the
 * fake VNPay), the voucher issued exactly once, the buyer's receipt, the recipient's e-mail on the delivery date with
 * the printable PDF (Vietnamese text extracted by pdftotext), `voucher.sold` delivered to a webhook endpoint, the code
 * paying part of a booking, staff's list and refund while unused (409 once used).
 */
describe('gift vouchers: purchase, payment, delivery, redemption and refund @db', function () {
  this.timeout(60_000);
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());
  const spec = paymentsSpec({ config: () => webhooksConfig({ allowedNetworks: ['127.0.0.1/32'], timeoutMs: 1_000 }) });
  let callers: CatalogCallers;
  before(async () => {
    callers = await catalogCallers();
  });
  const as = (headers: Record<string, string>) => requestsAs(spec.server, headers);
  const knex = () => spec.server.db.knex;
  const orderRow = (id: string) => knex()('gift_voucher_orders').where({ id }).first();
  const voucherOf = async (orderId: string) => knex()('vouchers').where({ id: (await orderRow(orderId)).voucher_id }).first();
  const deliveryJobs = async (orderId: string) =>
    ((await knex().raw(`select start_after from pgboss.job where name = ? and data->>'orderId' = ?`, [GIFT_VOUCHER_DELIVER_QUEUE, orderId])) as { rows: Array<{ start_after: Date }> }).rows;
  const emailsTo = (to: string) => knex()('email_messages').where({ to_address: to }).orderBy('created_at');

  beforeEach(async () => {
    receiver.reset();
    await knex()('webhook_endpoints').delete();
    await knex().raw("delete from pgboss.job where name = 'webhooks.deliver'");
  });

  describe('the public purchase', () => {
    it('answers the venue’s terms', async () => {
      const res = await spec.server.request<any>('GET', '/api/public/gift-vouchers/options');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ amountsVnd: [500_000, 1_000_000, 2_000_000], customAmount: { minVnd: 200_000, maxVnd: 20_000_000 }, validityMonths: 36, maxDeliveryDaysAhead: 365, currency: 'VND' });
    });

    it('refuses bad input naming the failing fields: 400 by the schema, 422 by the venue’s terms', async () => {
      const missing = await purchase(spec.server, { amountVnd: 1_000_000, buyer: { name: 'A' }, deliveryDate: today() });
      expect(missing.status).to.equal(400);
      expect(missing.body.errors.map((e: { path: string }) => e.path)).to.include.members(['body/buyer/email', 'body/recipient']);
      const badEmail = await purchase(spec.server, purchaseBody({ recipient: { name: 'X', email: 'not-an-address' } }));
      expect([badEmail.status, badEmail.body.errors[0].path]).to.deep.equal([400, 'body/recipient/email']);
      const badDate = await purchase(spec.server, purchaseBody({ deliveryDate: '2026-02-30x' }));
      expect([badDate.status, badDate.body.errors[0].path]).to.deep.equal([400, 'body/deliveryDate']);

      const both = await purchase(spec.server, purchaseBody({ amountVnd: 123_456_789, deliveryDate: daysAhead(366) }));
      expect(both.status).to.equal(422);
      expect(both.body.errors.map((e: { path: string; code: string }) => [e.path, e.code])).to.deep.equal([
        ['body/amountVnd', 'gift_voucher_amount_not_offered'],
        ['body/deliveryDate', 'delivery_date_out_of_range'],
      ]);
      const yesterday = await purchase(spec.server, purchaseBody({ deliveryDate: daysAhead(-1) }));
      expect([yesterday.status, yesterday.body.code]).to.deep.equal([422, 'delivery_date_out_of_range']);
      // Only the listed amounts once the free bounds are off.
      await knex()('commercial_setup').update({ gift_voucher_min_vnd: null, gift_voucher_max_vnd: null });
      try {
        const free = await purchase(spec.server, purchaseBody({ amountVnd: 750_000 }));
        expect([free.status, free.body.code]).to.deep.equal([422, 'gift_voucher_amount_not_offered']);
        expect((await purchase(spec.server, purchaseBody({ amountVnd: 500_000 }))).status).to.equal(201);
      } finally {
        await knex()('commercial_setup').update({ gift_voucher_min_vnd: 200_000, gift_voucher_max_vnd: 20_000_000 });
      }
      expect(await knex()('gift_voucher_orders').where({ amount_vnd: 123_456_789 })).to.have.length(0);
    });

    it('writes a PENDING order read with its token only (no names, no code); the Idempotency-Key replays the answer', async () => {
      const key = { 'idempotency-key': `gift-${Date.now()}-0123456789` };
      const body = purchaseBody({ amountVnd: 750_000 });
      const first = await purchase(spec.server, body, key);
      expect(first.status).to.equal(201);
      expect(first.body).to.include({ status: 'PENDING', amountVnd: 750_000, deliveryDate: body.deliveryDate });
      expect(first.body.reference).to.match(/^GO-[2-9A-HJKMNP-Z]{8}$/);
      const again = await purchase(spec.server, body, key);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
      expect(await knex()('gift_voucher_orders').where({ reference: first.body.reference })).to.have.length(1);
      const reused = await purchase(spec.server, { ...body, amountVnd: 500_000 }, key);
      expect([reused.status, reused.body.code]).to.deep.equal([422, 'idempotency_key_reused']);

      const read = (token?: string) => spec.server.request<any>('GET', `/api/public/gift-vouchers/orders/${first.body.reference}`, { headers: token ? { 'x-gift-order-token': token } : {} });
      const mine = await read(first.body.accessToken);
      expect(mine.status).to.equal(200);
      expect(Object.keys(mine.body).sort()).to.deep.equal(['amountVnd', 'deliveryDate', 'payBy', 'reference', 'status']);
      expect((await read('x'.repeat(43))).status).to.equal(404);
      expect((await read()).status).to.equal(404);
      const stranger = await spec.server.request<any>('POST', `/api/public/gift-vouchers/orders/${first.body.reference}/checkout`, { body: { method: 'VNPAY' }, headers: { 'x-gift-order-token': 'y'.repeat(43) } });
      expect(stranger.status).to.equal(404);
      const cash = await spec.server.request<any>('POST', `/api/public/gift-vouchers/orders/${first.body.reference}/checkout`, { body: { method: 'CASH' }, headers: { 'x-gift-order-token': first.body.accessToken } });
      expect([cash.status, cash.body.errors[0].path]).to.deep.equal([400, 'body/method']);
      const row = await knex()('gift_voucher_orders').where({ reference: first.body.reference }).first();
      expect(Buffer.from(row.access_token_hash).toString('base64url')).to.not.equal(first.body.accessToken);
    });

    it('is rate-limited per address', async () => {
      const headers = { 'x-forwarded-for': '198.51.100.77' };
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await spec.server.request('POST', '/api/public/gift-vouchers', { body: purchaseBody(), headers })).status);
      expect(statuses.slice(0, 10).every((s) => s === 201)).to.equal(true);
      expect(statuses[10]).to.equal(429);
    });
  });

  describe('payment', () => {
    it('issues the voucher once (an IPN replay changes nothing), e-mails the receipt, schedules the recipient’s e-mail, publishes voucher.sold', async () => {
      const endpoint = await createEndpoint(spec.server, callers.admin, { url: receiver.url(), eventTypes: ['voucher.sold'] });
      receiver.secrets = [endpoint.secret];
      const buyerEmail = `buyer-${Date.now()}@example.com`;
      const deliveryDate = daysAhead(20);
      const paid = await paidOrder(spec, { buyer: { name: 'Nguyễn Thị Lan', email: buyerEmail }, deliveryDate });
      expect((await ipn(spec.server, paid.params)).body.RspCode).to.equal('02');

      const row = await orderRow(paid.id);
      expect(row).to.include({ status: 'PAID' });
      const voucher = await voucherOf(paid.id);
      expect(voucher).to.include({ initial_value_vnd: 1_000_000, remaining_value_vnd: 1_000_000, status: 'ACTIVE', recipient_email: 'duc.tran@example.com' });
      expect(await knex()('vouchers').where({ created_by: `gift-voucher-order:${paid.reference}` })).to.have.length(1);
      // Valid 36 months: through the same day three years on (venue time).
      const expires = new Date(voucher.expires_at);
      expect(expires.getTime() - Date.now()).to.be.within(1095 * 86_400_000, 1097 * 86_400_000);

      const receipts = await emailsTo(buyerEmail);
      expect(receipts.map((m: { template: string; locale: string }) => [m.template, m.locale])).to.deep.equal([['gift-voucher-receipt', 'vi']]);
      expect(receipts[0].text_body).to.contain('Trần Minh Đức').and.not.contain(voucher.code);
      expect((await deliveryJobs(paid.id)).map((job) => new Date(job.start_after).toISOString())).to.deep.equal([atLocal(deliveryDate, '08:00', ZONE).toISOString()]);

      const got = await spec.server.request<any>('GET', `/api/public/gift-vouchers/orders/${paid.reference}`, { headers: { 'x-gift-order-token': paid.token } });
      expect(got.body.status).to.equal('PAID');
      // Paid: another checkout has nothing to pay.
      const more = await checkout(spec.server, paid);
      expect([more.status, more.body.code]).to.deep.equal([409, 'nothing_to_pay']);

      expect(await runDeliveries(spec.server)).to.deep.equal(['succeeded']);
      expect(receiver.delivered()).to.have.length(1);
      const [sold] = receiver.delivered();
      expect(sold.verifiedWith).to.deep.equal([0]);
      expect(sold.payload).to.deep.include({ type: 'voucher.sold' });
      expect(sold.payload.data).to.deep.equal({ orderId: paid.id, reference: paid.reference, voucherId: voucher.id, amountVnd: 1_000_000, expiresAt: expires.toISOString(), deliveryDate, paymentId: paid.paymentId });
      expect(webhookEventValidator()(sold.payload)).to.equal(true);
    });

    it('sends the recipient the code, the amount, the message and the printable PDF on the delivery date; once', async function () {
      const recipient = `recipient-${Date.now()}@example.com`;
      const paid = await paidOrder(spec, { recipient: { name: 'Trần Minh Đức', email: recipient }, deliveryDate: today() });
      const [job] = await deliveryJobs(paid.id);
      expect(new Date(job.start_after).getTime()).to.be.at.most(Date.now() + 1000);
      expect(await emailsTo(recipient)).to.have.length(0);
      expect(await deliverGiftVoucher(spec.server.app.context, paid.id)).to.equal('delivered');
      expect(await deliverGiftVoucher(spec.server.app.context, paid.id)).to.equal('skipped');
      const voucher = await voucherOf(paid.id);
      const [mail] = await emailsTo(recipient);
      expect(mail).to.include({ template: 'gift-voucher-delivery', locale: 'vi' });
      expect(mail.text_body).to.contain(voucher.code).and.contain('Chúc mừng sinh nhật!').and.contain('1.000.000');
      expect(mail.attachments).to.deep.equal([{ filename: `gift-voucher-${paid.reference}.pdf`, contentType: 'application/pdf', size: mail.attachments[0].size, contentId: null }]);
      const [pdf] = await knex()('email_attachments').where({ message_id: mail.id });
      expect(Buffer.from(pdf.content).subarray(0, 5).toString('latin1')).to.equal('%PDF-');
      expect((await orderRow(paid.id)).delivered_at).to.not.equal(null);
      if (!(await hasPdftotext())) this.skip();
      const text = (await pdfBytesText(Buffer.from(pdf.content))).replace(/\s+/g, ' ');
      expect(text).to.contain('Phiếu quà tặng').and.contain('Trần Minh Đức').and.contain('Nguyễn Thị Lan').and.contain('Chúc mừng sinh nhật! Hẹn gặp ở nhà hát.').and.contain(voucher.code).and.contain('1.000.000 ₫');
    });
  });

  describe('redemption and refunds', () => {
    it('the code pays part of a booking; a used voucher is 409 gift_voucher_used, an unused one is refunded through VNPay and voided', async () => {
      const used = await paidOrder(spec, { amountVnd: 500_000 });
      const voucher = await voucherOf(used.id);
      const { event, offer } = await bookableEvent({ price: 1_500_000 });
      const hold = await spec.server.request<any>('POST', '/api/public/reservations', {
        body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 1, contact: contact(7), voucherCode: voucher.code.toLowerCase() },
        headers: fromNewAddress(),
      });
      expect(hold.status, JSON.stringify(hold.body)).to.equal(201);
      const reservation = await knex()('reservations').where({ reference: hold.body.reference }).first();
      expect(Number(reservation.voucher_credit_vnd)).to.equal(500_000);
      expect(Number(reservation.total_vnd)).to.be.above(0);
      expect((await voucherOf(used.id)).remaining_value_vnd).to.equal(0);

      const refund = (orderId: string, headers: Record<string, string> = callers.admin) => as(headers).post(`/api/gift-vouchers/orders/${orderId}/refund`, { reason: 'changed their mind' });
      const refused = await refund(used.id);
      expect([refused.status, refused.body.code]).to.deep.equal([409, 'gift_voucher_used']);
      expect((await orderRow(used.id)).status).to.equal('PAID');

      const unused = await paidOrder(spec, { amountVnd: 2_000_000 });
      expect((await refund(unused.id, callers.staff)).status).to.equal(403);
      expect((await refund(unused.id, {})).status).to.equal(401);
      expect((await refund(MISSING_ID)).status).to.equal(404);
      const done = await refund(unused.id);
      expect(done.status, JSON.stringify(done.body)).to.equal(200);
      expect(done.body).to.include({ status: 'REFUNDED', voucherRemainingVnd: 0 });
      expect(await voucherOf(unused.id)).to.include({ status: 'EXPIRED', remaining_value_vnd: 0 });
      const refunds = await knex()('refunds').where({ payment_id: unused.paymentId });
      expect(refunds.map((r: { amount_vnd: number; status: string }) => [r.amount_vnd, r.status])).to.deep.equal([[2_000_000, 'SUCCEEDED']]);
      expect(spec.vnpay.apiRequests.at(-1)!.body.vnp_OrderInfo).to.equal(`Hoan tien phieu qua tang ${unused.reference}`);
      await runRefundJob(spec.server, refunds[0].id); // the fallback job finds it done
      expect(await knex()('refunds').where({ payment_id: unused.paymentId })).to.have.length(1);
      const again = await refund(unused.id);
      expect([again.status, again.body.code]).to.deep.equal([409, 'gift_voucher_order_not_refundable']);
      // The voided code no longer pays.
      const voided = await spec.server.request<any>('POST', '/api/public/reservations', {
        body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 1, contact: contact(8), voucherCode: (await voucherOf(unused.id)).code },
        headers: fromNewAddress(),
      });
      expect([voided.status, voided.body.code]).to.deep.equal([422, 'voucher_expired']);
      // Nor is the recipient told of it any more.
      expect(await deliverGiftVoucher(spec.server.app.context, unused.id)).to.equal('skipped');
      const unpaid = await order(spec.server);
      const notPaid = await refund(unpaid.id);
      expect([notPaid.status, notPaid.body.code]).to.deep.equal([409, 'gift_voucher_order_not_refundable']);
    });

    it('a full refund of its payment through payments’ own route voids the unused voucher and marks the order refunded', async () => {
      const paid = await paidOrder(spec, { amountVnd: 500_000 });
      const res = await as(callers.admin).post(`/api/payments/${paid.paymentId}/refunds`, { amountVnd: 500_000, reason: 'refunded at the desk’s request' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.status).to.equal('SUCCEEDED');
      expect(await orderRow(paid.id)).to.include({ status: 'REFUNDED' });
      expect(await voucherOf(paid.id)).to.include({ status: 'EXPIRED', remaining_value_vnd: 0 });
    });

    it('lists orders for staff with state filters (401 anonymous); an unpaid order past its hour reads EXPIRED and cannot be paid', async () => {
      const late = await order(spec.server, { buyer: { name: 'Late Buyer', email: 'late@example.com' } });
      await knex()('gift_voucher_orders').where({ id: late.id }).update({ pay_by: new Date(Date.now() - 1000) });
      const refused = await checkout(spec.server, late);
      expect([refused.status, refused.body.code]).to.deep.equal([409, 'gift_voucher_order_expired']);
      expect((await as({}).get('/api/gift-vouchers/orders')).status).to.equal(401);
      const expired = await as(callers.staff).get('/api/gift-vouchers/orders?status=EXPIRED&q=late%40example');
      expect(expired.status).to.equal(200);
      expect(expired.body.items.map((o: { reference: string; status: string }) => [o.reference, o.status])).to.deep.equal([[late.reference, 'EXPIRED']]);
      const paid = await as(callers.staff).get('/api/gift-vouchers/orders?status=PAID&limit=100');
      expect(paid.body.items.length).to.be.above(0);
      expect(paid.body.items.every((o: { status: string; voucherCode: string | null }) => o.status === 'PAID' && /^GV-/.test(o.voucherCode ?? ''))).to.equal(true);
      expect((await as(callers.staff).get('/api/gift-vouchers/orders?status=SOLD')).status).to.equal(400);
    });
  });
});
