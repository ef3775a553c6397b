import { expect } from 'chai';
import { expireHolds } from '../../../server/modules/booking/commands/expireHolds.ts';
import { bookableEvent, contact } from '../booking/factories.ts';
import { apiKeyWith, catalogSpec, MISSING_ID } from '../shows/catalog.ts';

/**
 * Promo codes (issue 13): Admin+ CRUD, delete = INACTIVE, applied at hold time through the price adjustments
 * registry, the maximum of redemptions under concurrency, redemptions given back on cancel and hold expiry.
 */
describe('promoCodes: /api/promo-codes and promo codes on bookings', () => {
  const spec = catalogSpec();
  const as = spec.as;
  const admin = () => as(spec.callers.admin);
  let ip = 1;
  const guest = () => as({ 'x-forwarded-for': `198.51.${(ip >> 8) & 255}.${ip++ & 255}` });

  async function promo(body: Record<string, unknown>) {
    const res = await admin().post('/api/promo-codes', body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body;
  }

  const hold = (event: { slug: string }, offer: { code: string }, extra: Record<string, unknown> = {}, n = 1) =>
    guest().post('/api/public/reservations', { eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: contact(n), ...extra });

  it('refuses anonymous callers (401) and staff (403); admins and keys with promo-codes:* get in', async () => {
    const created = await promo({ code: 'access1', discountKind: 'FIXED', amountOffVnd: 100_000 });
    expect(created.code).to.equal('ACCESS1');
    for (const [method, path] of [['get', '/api/promo-codes'], ['get', `/api/promo-codes/${created.id}`], ['delete', `/api/promo-codes/${created.id}`]] as const) {
      expect((await as({})[method](path)).status).to.equal(401);
      expect((await as(spec.callers.staff)[method](path)).status).to.equal(403);
    }
    expect((await as({}).post('/api/promo-codes', { code: 'X123', discountKind: 'FIXED', amountOffVnd: 1 })).status).to.equal(401);
    expect((await as(spec.callers.staff).patch(`/api/promo-codes/${created.id}`, { description: 'no' })).status).to.equal(403);
    expect((await as(await apiKeyWith('promo-codes:read')).get(`/api/promo-codes/${created.id}`)).status).to.equal(200);
    const refused = await as(await apiKeyWith('promo-codes:read')).patch(`/api/promo-codes/${created.id}`, { description: 'key' });
    expect(refused.body.code).to.equal('missing_permission');
    expect((await admin().get(`/api/promo-codes/${created.id}`)).body.description).to.equal(null);
  });

  it('validates: 400 for malformed bodies, 422 for inconsistent discounts, windows and unknown shows, 409 for a taken code', async () => {
    expect((await admin().post('/api/promo-codes', { code: 'BAD CODE', discountKind: 'FIXED', amountOffVnd: 1 })).status).to.equal(400);
    expect((await admin().post('/api/promo-codes', { code: 'OK1', discountKind: 'PERCENT', percentOff: 101 })).status).to.equal(400);
    expect((await admin().post('/api/promo-codes', { code: 'OK1', discountKind: 'FIXED', amountOffVnd: 1, extra: true })).status).to.equal(400);
    expect((await admin().post('/api/promo-codes', { code: 'OK1', discountKind: 'PERCENT' })).body.code).to.equal('invalid_discount');
    expect((await admin().post('/api/promo-codes', { code: 'OK1', discountKind: 'FIXED', amountOffVnd: 5, percentOff: 5 })).body.code).to.equal('invalid_discount');
    const window = await admin().post('/api/promo-codes', { code: 'OK1', discountKind: 'FIXED', amountOffVnd: 5, validFrom: '2027-01-02T00:00:00Z', validUntil: '2027-01-01T00:00:00Z' });
    expect(window.body).to.include({ status: 422, code: 'invalid_window' });
    expect((await admin().post('/api/promo-codes', { code: 'OK1', discountKind: 'FIXED', amountOffVnd: 5, showIds: [MISSING_ID] })).body.code).to.equal('unknown_show');
    await promo({ code: 'Taken1', discountKind: 'FIXED', amountOffVnd: 5 });
    const taken = await admin().post('/api/promo-codes', { code: 'TAKEN1', discountKind: 'FIXED', amountOffVnd: 5 });
    expect(taken.status).to.equal(409);
    expect(taken.body.code).to.equal('code_taken');
    expect((await admin().get(`/api/promo-codes/${MISSING_ID}`)).status).to.equal(404);
    expect((await admin().patch(`/api/promo-codes/${MISSING_ID}`, { description: 'x' })).status).to.equal(404);
    expect((await admin().delete(`/api/promo-codes/${MISSING_ID}`)).status).to.equal(404);
  });

  it('takes a percent off the subtotal before service charge and VAT, records the redemption, and lists/updates codes', async () => {
    const { event, offer } = await bookableEvent({ price: 1_500_000 });
    const code = await promo({ code: 'Welcome10', discountKind: 'PERCENT', percentOff: 10, description: 'Newsletter' });
    const res = await hold(event, offer, { promoCode: 'welcome10' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    // 3,000,000 − 300,000 = 2,700,000; service 5 % = 135,000; VAT 8 % of 2,835,000 = 226,800.
    expect(res.body.price).to.deep.include({ subtotalVnd: 3_000_000, discountVnd: 300_000, serviceChargeVnd: 135_000, vatVnd: 226_800, voucherCreditVnd: 0, totalVnd: 3_061_800 });
    expect(res.body.attribution.promoCode).to.equal('WELCOME10');
    const row = await spec.server.db.knex('reservations').where({ reference: res.body.reference }).first();
    expect(row).to.include({ promo_code: 'WELCOME10', promo_discount_vnd: 300_000, discount_vnd: 300_000 });
    const redemption = await spec.server.db.knex('promo_code_redemptions').where({ reservation_id: row.id }).first();
    expect(redemption).to.include({ promo_code_id: code.id, discount_vnd: 300_000, released_at: null });
    expect((await admin().get(`/api/promo-codes/${code.id}`)).body.redemptionCount).to.equal(1);

    const fixed = await promo({ code: 'BIGFIXED', discountKind: 'FIXED', amountOffVnd: 5_000_000 });
    const capped = await hold(event, offer, { promoCode: 'BIGFIXED' }, 2);
    expect(capped.body.price).to.deep.include({ discountVnd: 3_000_000, serviceChargeVnd: 0, vatVnd: 0, totalVnd: 0 });

    const listed = await admin().get('/api/promo-codes?q=newsletter');
    expect(listed.body.total).to.equal(1);
    expect(listed.body.items[0].code).to.equal('WELCOME10');
    const changed = await admin().patch(`/api/promo-codes/${fixed.id}`, { discountKind: 'PERCENT', percentOff: 50 });
    expect(changed.body).to.include({ discountKind: 'PERCENT', percentOff: 50, amountOffVnd: null });
    expect((await admin().patch(`/api/promo-codes/${code.id}`, { maxRedemptions: 1 })).body.maxRedemptions).to.equal(1);
    await admin().delete(`/api/promo-codes/${fixed.id}`);
    expect((await admin().get('/api/promo-codes?status=INACTIVE&q=bigfixed')).body.total).to.equal(1);
    expect((await admin().get('/api/promo-codes?status=ACTIVE&q=bigfixed')).body.total).to.equal(0);
  });

  it('refuses unknown, inactive, out-of-window, other-show and used-up codes, writing nothing', async () => {
    const { event, offer, show } = await bookableEvent();
    const other = await bookableEvent();
    const before = await spec.server.db.knex('reservations').count({ n: '*' }).first();
    const codeOf = async (promoCode: string, target = { event, offer }) => (await hold(target.event, target.offer, { promoCode })).body.code;
    expect(await codeOf('NOSUCH')).to.equal('promo_code_invalid');
    const inactive = await promo({ code: 'SLEEPY', discountKind: 'FIXED', amountOffVnd: 1000 });
    expect((await admin().delete(`/api/promo-codes/${inactive.id}`)).status).to.equal(204);
    expect((await admin().delete(`/api/promo-codes/${inactive.id}`)).status).to.equal(204);
    expect((await admin().get(`/api/promo-codes/${inactive.id}`)).body.status).to.equal('INACTIVE');
    expect(await codeOf('SLEEPY')).to.equal('promo_code_invalid');
    await promo({ code: 'LATER', discountKind: 'FIXED', amountOffVnd: 1000, validFrom: new Date(Date.now() + 86_400_000).toISOString() });
    expect(await codeOf('LATER')).to.equal('promo_code_invalid');
    await promo({ code: 'SHOWONLY', discountKind: 'FIXED', amountOffVnd: 1000, showIds: [show.id] });
    expect(await codeOf('SHOWONLY', other)).to.equal('promo_code_not_applicable');
    const after = await spec.server.db.knex('reservations').count({ n: '*' }).first();
    expect(Number(after!.n)).to.equal(Number(before!.n));
    expect((await hold(event, offer, { promoCode: 'SHOWONLY' })).status).to.equal(201);
    await promo({ code: 'ONCE', discountKind: 'FIXED', amountOffVnd: 1000, maxRedemptions: 1 });
    expect((await hold(event, offer, { promoCode: 'ONCE' })).status).to.equal(201);
    const usedUp = await hold(event, offer, { promoCode: 'ONCE' });
    expect(usedUp.status).to.equal(409);
    expect(usedUp.body.code).to.equal('promo_code_exhausted');
  });

  it('gives a redemption back when the booking is cancelled or its hold expires; a deactivated code stays on its reservations', async () => {
    const knex = spec.server.db.knex;
    const { event, offer } = await bookableEvent();
    const code = await promo({ code: 'BACK', discountKind: 'FIXED', amountOffVnd: 10_000, maxRedemptions: 1 });
    const first = await hold(event, offer, { promoCode: 'BACK' });
    const cancel = await spec.server.request<any>('POST', `/api/public/reservations/${first.body.reference}/cancel`, { headers: { 'x-reservation-token': first.body.accessToken }, body: {} });
    expect(cancel.status, JSON.stringify(cancel.body)).to.equal(200);
    expect((await admin().get(`/api/promo-codes/${code.id}`)).body.redemptionCount).to.equal(0);

    const second = await hold(event, offer, { promoCode: 'BACK' }, 2);
    expect(second.status).to.equal(201);
    expect((await hold(event, offer, { promoCode: 'BACK' }, 3)).body.code).to.equal('promo_code_exhausted');
    await knex('reservations').where({ reference: second.body.reference }).update({ hold_expires_at: new Date(Date.now() - 1000) });
    expect(await expireHolds(spec.server.app.context)).to.equal(1);
    expect((await admin().get(`/api/promo-codes/${code.id}`)).body.redemptionCount).to.equal(0);
    const released = await knex('promo_code_redemptions').whereNotNull('released_at').count({ n: '*' }).first();
    expect(Number(released!.n)).to.equal(2);

    const third = await hold(event, offer, { promoCode: 'BACK' }, 4);
    expect(third.status).to.equal(201);
    expect((await admin().delete(`/api/promo-codes/${code.id}`)).status).to.equal(204);
    const row = await knex('reservations').where({ reference: third.body.reference }).first();
    expect(row.promo_code).to.equal('BACK');
    expect(await knex('promo_code_redemptions').where({ reservation_id: row.id }).first()).to.include({ promo_code_id: code.id });
  });

  it('never redeems a code more often than its maximum under concurrent bookings (different events) @db', async function () {
    this.timeout(120_000);
    const knex = spec.server.db.knex;
    const targets: Array<Awaited<ReturnType<typeof bookableEvent>>> = [];
    for (let i = 0; i < 6; i++) targets.push(await bookableEvent());
    const code = await promo({ code: 'RUSH3', discountKind: 'PERCENT', percentOff: 20, maxRedemptions: 3 });
    const answers = await Promise.all(Array.from({ length: 18 }, (_, i) => hold(targets[i % 6].event, targets[i % 6].offer, { promoCode: 'RUSH3' }, 500 + i)));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).to.equal(3);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'promo_code_exhausted')).to.equal(true);
    expect(answers.filter((a) => a.status !== 201).length).to.equal(15);
    expect((await admin().get(`/api/promo-codes/${code.id}`)).body.redemptionCount).to.equal(3);
    const redemptions = await knex('promo_code_redemptions').where({ promo_code_id: code.id }).count({ n: '*' }).first();
    expect(Number(redemptions!.n)).to.equal(3);
  });
});
