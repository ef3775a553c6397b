import { expect } from 'chai';
import { confirmReservation } from '../../../server/modules/booking/lifecycle.ts';
import { inTransition } from '../../../server/domain/unitOfWork.ts';
import { expireHolds } from '../../../server/modules/booking/commands/expireHolds.ts';
import { bookableEvent, contact } from '../booking/factories.ts';
import { apiKeyWith, catalogSpec, MISSING_ID } from '../shows/catalog.ts';

/**
 * Vouchers (issue 13): Staff+ CRUD (delete expires and zeroes), redemption at hold time (the credit comes off the
 * total after VAT and off the voucher in the same transaction), never more than the value under concurrency,
 * the credit given back on cancel and hold expiry, and the public, rate-limited balance check.
 */
describe('vouchers: /api/vouchers, the balance check and vouchers on bookings', () => {
  const spec = catalogSpec({ config: { trustProxy: true } });
  const as = spec.as;
  const staff = () => as(spec.callers.staff);
  let ip = 1;
  const guest = () => as({ 'x-forwarded-for': `192.0.${(ip >> 8) & 255}.${ip++ & 255}` });
  const inAYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString();

  async function voucher(body: Record<string, unknown> = {}) {
    const res = await staff().post('/api/vouchers', { valueVnd: 1_000_000, expiresAt: inAYear(), ...body });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body;
  }

  const hold = (target: { event: { slug: string }; offer: { code: string } }, voucherCode: string, n = 1, guestCount = 2) =>
    guest().post('/api/public/reservations', { eventSlug: target.event.slug, offerCode: target.offer.code, guestCount, contact: contact(n), voucherCode });

  it('refuses anonymous callers (401) on every staff operation; staff and keys with vouchers:* get in', async () => {
    const created = await voucher();
    expect(created.code).to.match(/^GV-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    expect(created).to.include({ initialValueVnd: 1_000_000, remainingValueVnd: 1_000_000, status: 'ACTIVE' });
    expect((await as({}).get('/api/vouchers')).status).to.equal(401);
    expect((await as({}).get(`/api/vouchers/${created.id}`)).status).to.equal(401);
    expect((await as({}).post('/api/vouchers', { valueVnd: 5000, expiresAt: inAYear() })).status).to.equal(401);
    expect((await as({}).patch(`/api/vouchers/${created.id}`, { note: 'x' })).status).to.equal(401);
    expect((await as({}).delete(`/api/vouchers/${created.id}`)).status).to.equal(401);
    expect((await as(await apiKeyWith('vouchers:read')).get(`/api/vouchers/${created.id}`)).status).to.equal(200);
    const refused = await as(await apiKeyWith('vouchers:read')).delete(`/api/vouchers/${created.id}`);
    expect(refused.status).to.equal(403);
    expect((await staff().get(`/api/vouchers/${created.id}`)).body.voucher.status).to.equal('ACTIVE');
  });

  it('validates input (400), past expiries (422), taken codes (409) and unknown ids (404)', async () => {
    expect((await staff().post('/api/vouchers', { valueVnd: 1.5, expiresAt: inAYear() })).status).to.equal(400);
    expect((await staff().post('/api/vouchers', { valueVnd: 5000 })).status).to.equal(400);
    expect((await staff().post('/api/vouchers', { valueVnd: 5000, expiresAt: inAYear(), remainingValueVnd: 1 })).status).to.equal(400);
    expect((await staff().post('/api/vouchers', { valueVnd: 5000, expiresAt: '2020-01-01T00:00:00Z' })).body.code).to.equal('expiry_in_past');
    await voucher({ code: 'gift-2026' });
    const taken = await staff().post('/api/vouchers', { code: 'GIFT-2026', valueVnd: 5000, expiresAt: inAYear() });
    expect(taken.status).to.equal(409);
    expect(taken.body.code).to.equal('code_taken');
    expect((await staff().get(`/api/vouchers/${MISSING_ID}`)).status).to.equal(404);
    expect((await staff().patch(`/api/vouchers/${MISSING_ID}`, { note: 'x' })).status).to.equal(404);
    expect((await staff().delete(`/api/vouchers/${MISSING_ID}`)).status).to.equal(404);
  });

  it('pays part of a booking after VAT, takes the credit off the voucher, and lists the redemption', async () => {
    const target = await bookableEvent({ price: 1_500_000 });
    const created = await voucher({ code: 'PART-1', valueVnd: 1_000_000, recipientName: 'Trần Minh' });
    const res = await hold(target, 'part-1');
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    // 3,000,000 + 150,000 + 252,000 = 3,402,000 gross; the voucher pays 1,000,000 of it.
    expect(res.body.price).to.deep.include({ discountVnd: 0, serviceChargeVnd: 150_000, vatVnd: 252_000, voucherCreditVnd: 1_000_000, totalVnd: 2_402_000 });
    expect(res.body.attribution.voucherCode).to.equal('PART-1');
    const detail = (await staff().get(`/api/vouchers/${created.id}`)).body;
    expect(detail.voucher).to.include({ remainingValueVnd: 0, status: 'REDEEMED' });
    expect(detail.redemptions).to.have.length(1);
    expect(detail.redemptions[0]).to.include({ reservationReference: res.body.reference, amountVnd: 1_000_000, reservationStatus: 'HELD', releasedAt: null });
    expect((await hold(target, 'PART-1', 2)).body.code).to.equal('voucher_empty');

    const big = await voucher({ code: 'BIG-1', valueVnd: 5_000_000 });
    const covered = await hold(target, 'BIG-1', 3);
    expect(covered.body.price).to.deep.include({ voucherCreditVnd: 3_402_000, totalVnd: 0 });
    // Nothing left to pay: confirmed at once (no hold to run out), with its confirmation e-mail queued.
    expect(covered.body).to.include({ status: 'CONFIRMED', holdExpiresAt: null });
    const confirmed = await spec.server.db.knex('reservations').where({ reference: covered.body.reference }).first('confirmed_by', 'check_in_token_hash');
    expect(confirmed.confirmed_by).to.equal('SYSTEM');
    expect(confirmed.check_in_token_hash).to.not.equal(null);
    const mails = await spec.server.db.knex('email_messages as m').join('reservations as r', 'r.id', 'm.reservation_id').where('r.reference', covered.body.reference).select('m.template');
    expect(mails.map((m: any) => m.template)).to.deep.equal(['reservation-confirmation']);
    expect((await staff().get(`/api/vouchers/${big.id}`)).body.voucher).to.include({ remainingValueVnd: 1_598_000, status: 'ACTIVE' });
    expect((await staff().get('/api/vouchers?q=tr%E1%BA%A7n')).body.items.map((v: any) => v.code)).to.deep.equal(['PART-1']);
    expect((await staff().get('/api/vouchers?status=REDEEMED')).body.items.map((v: any) => v.code)).to.include('PART-1');
  });

  it('refuses unknown, expired and deleted vouchers, writing nothing; delete zeroes the value (idempotent)', async () => {
    const target = await bookableEvent();
    const before = Number((await spec.server.db.knex('reservations').count({ n: '*' }).first())!.n);
    expect((await hold(target, 'NO-SUCH-VOUCHER')).body).to.include({ status: 422, code: 'voucher_invalid' });
    const old = await voucher({ code: 'OLD-1' });
    await spec.server.db.knex('vouchers').where({ id: old.id }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await hold(target, 'OLD-1')).body.code).to.equal('voucher_expired');
    expect((await staff().get(`/api/vouchers/${old.id}`)).body.voucher.status).to.equal('EXPIRED');
    const gone = await voucher({ code: 'GONE-1' });
    expect((await staff().delete(`/api/vouchers/${gone.id}`)).status).to.equal(204);
    expect((await staff().delete(`/api/vouchers/${gone.id}`)).status).to.equal(204);
    const detail = (await staff().get(`/api/vouchers/${gone.id}`)).body.voucher;
    expect(detail).to.include({ status: 'EXPIRED', remainingValueVnd: 0 });
    expect(detail.expiredAt).to.be.a('string');
    expect((await hold(target, 'GONE-1')).body.code).to.equal('voucher_expired');
    expect((await staff().patch(`/api/vouchers/${gone.id}`, { note: 'x' })).body.code).to.equal('voucher_expired');
    expect(Number((await spec.server.db.knex('reservations').count({ n: '*' }).first())!.n)).to.equal(before);
    const changed = await staff().patch(`/api/vouchers/${old.id}`, { expiresAt: inAYear(), note: 'extended' });
    expect(changed.body).to.include({ status: 'ACTIVE', note: 'extended' });
  });

  it('gives the credit back when the booking is cancelled or its hold expires; a late payment takes it again', async () => {
    const knex = spec.server.db.knex;
    const target = await bookableEvent({ price: 100_000 });
    // Less than the total, so the booking stays a hold (a voucher that covers it all confirms it at once).
    const created = await voucher({ code: 'BACK-1', valueVnd: 200_000 });
    const remaining = async () => (await staff().get(`/api/vouchers/${created.id}`)).body.voucher.remainingValueVnd;
    // 2 × 100,000 + 5 % + 8 % = 226,800.
    const first = await hold(target, 'BACK-1');
    expect(first.body.price).to.deep.include({ voucherCreditVnd: 200_000, totalVnd: 26_800 });
    expect(first.body.status).to.equal('HELD');
    expect(await remaining()).to.equal(0);
    const cancel = await spec.server.request<any>('POST', `/api/public/reservations/${first.body.reference}/cancel`, { headers: { 'x-reservation-token': first.body.accessToken }, body: {} });
    expect(cancel.status).to.equal(200);
    expect(await remaining()).to.equal(200_000);

    const second = await hold(target, 'BACK-1', 2);
    expect(await remaining()).to.equal(0);
    await knex('reservations').where({ reference: second.body.reference }).update({ hold_expires_at: new Date(Date.now() - 1000) });
    expect(await expireHolds(spec.server.app.context)).to.equal(1);
    expect(await remaining()).to.equal(200_000);
    // The payment arrives after the expiry: confirming takes the credit again.
    const id = (await knex('reservations').where({ reference: second.body.reference }).first('id')).id;
    await inTransition(spec.server.app.context, 'SYSTEM', (ctx) => confirmReservation(ctx, id, { by: 'PAYMENT' }));
    expect(await remaining()).to.equal(0);
    const redemptions = (await staff().get(`/api/vouchers/${created.id}`)).body.redemptions;
    expect(redemptions.map((r: any) => [r.reservationStatus, r.releasedAt === null])).to.deep.equal([
      ['CONFIRMED', true],
      ['CANCELLED', false],
    ]);
  });

  it('two or more concurrent redemptions never spend more than the value @db', async function () {
    this.timeout(120_000);
    const knex = spec.server.db.knex;
    const targets: Array<Awaited<ReturnType<typeof bookableEvent>>> = [];
    for (let i = 0; i < 4; i++) targets.push(await bookableEvent({ price: 100_000 }));
    // Each booking costs 226,800; the voucher holds 500,000: at most 500,000 can be spent, whatever the order.
    const created = await voucher({ code: 'RACE-1', valueVnd: 500_000 });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => hold(targets[i % 4], 'RACE-1', 900 + i)));
    const created201 = answers.filter((a) => a.status === 201);
    const spent = created201.reduce((sum, a) => sum + a.body.price.voucherCreditVnd, 0);
    expect(spent).to.equal(500_000);
    expect(created201.map((a) => a.body.price.voucherCreditVnd).sort((a, b) => a - b)).to.deep.equal([46_400, 226_800, 226_800]);
    expect(answers.filter((a) => a.status !== 201).every((a) => a.body.code === 'voucher_empty')).to.equal(true);
    const detail = (await staff().get(`/api/vouchers/${created.id}`)).body;
    expect(detail.voucher).to.include({ remainingValueVnd: 0, status: 'REDEEMED' });
    expect(detail.redemptions.reduce((sum: number, r: any) => sum + r.amountVnd, 0)).to.equal(500_000);
  });

  it('the public balance check reveals only the remaining value and expiry, 404 for unknown codes, and is rate-limited', async () => {
    const created = await voucher({ code: 'BAL-1', valueVnd: 700_000, recipientName: 'Secret Name', note: 'private' });
    const fixed = { 'x-forwarded-for': '203.0.113.77' };
    const res = await as(fixed).post('/api/public/vouchers/balance', { code: 'bal-1' });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ remainingValueVnd: 700_000, expiresAt: created.expiresAt });
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect((await as(fixed).post('/api/public/vouchers/balance', { code: 'NOPE-NOPE' })).status).to.equal(404);
    expect((await as(fixed).post('/api/public/vouchers/balance', { code: '' })).status).to.equal(400);
    expect((await as(fixed).post('/api/public/vouchers/balance', { code: 'BAL-1', extra: 1 })).status).to.equal(400);
    let last;
    for (let i = 0; i < 20; i++) last = await as(fixed).post('/api/public/vouchers/balance', { code: 'BAL-1' });
    expect(last!.status).to.equal(429);
    expect(Number(last!.headers.get('retry-after'))).to.be.greaterThan(0);
  });
});
