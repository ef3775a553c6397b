import { expect } from 'chai';
import { asSuperuser, startTestServer, type TestServer } from '../../helpers/server.ts';
import { bookableEvent, contact } from './factories.ts';

/**
 * Issue 34 §3: the party's total (service charge and VAT included) before the hold, from the hold's own pricing —
 * `POST /api/public/quotes`. The offer's limits are the hold's (422 `guest_count_out_of_range`), codes are applied
 * as the hold applies them, nothing is written (its transaction is rolled back: hence @db), and it is rate-limited.
 */
describe('booking: the public quote (POST /api/public/quotes) @db', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ config: { trustProxy: true } });
  });
  after(async () => server.close());

  let ip = 0;
  const address = () => ({ 'x-forwarded-for': `198.20.${(++ip >> 8) & 255}.${ip & 255}` });
  const quote = (body: Record<string, unknown>, headers: Record<string, string> = address()) => server.request<any>('POST', '/api/public/quotes', { body, headers });
  const counts = async () => {
    const [reservations, promo] = await Promise.all([server.db.knex('reservations').count({ n: '*' }).first(), server.db.knex('promo_codes').sum({ n: 'redemption_count' }).first()]);
    return [Number(reservations?.n), Number(promo?.n ?? 0)];
  };

  it('prices the party as the hold then charges it (service charge and VAT included), within the offer’s limits, writing nothing', async () => {
    const { event, offer } = await bookableEvent({ price: 1_250_000, minGuests: 2, maxGuests: 6 });
    // The public catalog lists the limits the quote and the hold enforce.
    const listed = await server.request<any>('GET', `/api/public/show-events/${event.slug}`);
    expect(listed.body.offers.find((o: { code: string }) => o.code === offer.code)).to.include({ minGuests: 2, maxGuests: 6 });

    const promo = await server.request<any>('POST', '/api/promo-codes', { headers: asSuperuser, body: { code: 'QUOTE10', discountKind: 'PERCENT', percentOff: 10 } });
    expect(promo.status, JSON.stringify(promo.body)).to.equal(201);
    const before = await counts();
    const res = await quote({ eventSlug: event.slug, offerCode: offer.code, guestCount: 4, promoCode: 'quote10' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    // 4 × 1,250,000 = 5,000,000; −10 % = 4,500,000; +5 % service = 225,000; +8 % VAT on 4,725,000 = 378,000.
    expect(res.body).to.deep.equal({
      eventSlug: event.slug,
      offerCode: offer.code,
      guestCount: 4,
      price: {
        currency: 'VND',
        pricePerGuestVnd: 1_250_000,
        subtotalVnd: 5_000_000,
        discountVnd: 500_000,
        serviceChargeVnd: 225_000,
        vatVnd: 378_000,
        voucherCreditVnd: 0,
        totalVnd: 5_103_000,
        serviceChargePercent: 5,
        vatPercent: 8,
      },
      promoDiscountVnd: 500_000,
      referralDiscountVnd: 0,
      promoCode: 'QUOTE10',
      referralCode: null,
    });
    expect(await counts()).to.deep.equal(before);

    const held = await server.request<any>('POST', '/api/public/reservations', {
      headers: address(),
      body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 4, promoCode: 'quote10', contact: contact(71) },
    });
    expect(held.status, JSON.stringify(held.body)).to.equal(201);
    expect(held.body.price).to.deep.equal(res.body.price);

    // Outside the offer's limits: the hold's refusal, on the field.
    for (const guestCount of [1, 7]) {
      const refused = await quote({ eventSlug: event.slug, offerCode: offer.code, guestCount });
      expect(refused.status).to.equal(422);
      expect(refused.body).to.include({ code: 'guest_count_out_of_range', detail: 'This offer takes 2 to 6 guests.' });
      expect(refused.body.errors[0]).to.include({ path: 'body/guestCount', code: 'guest_count_out_of_range' });
    }
  });

  it('refuses as the hold does: an unknown event 404, a bad code 422, the cut-off 409, a bad body 400', async () => {
    const { event, offer } = await bookableEvent();
    expect((await quote({ eventSlug: 'no-such-event-2030-01-01-1930', offerCode: offer.code, guestCount: 2 })).status).to.equal(404);
    const badCode = await quote({ eventSlug: event.slug, offerCode: offer.code, guestCount: 2, promoCode: 'NOPE99' });
    expect([badCode.status, badCode.body.code, badCode.body.errors[0].path]).to.deep.equal([422, 'promo_code_invalid', 'body/promoCode']);
    const otherOffer = await quote({ eventSlug: event.slug, offerCode: 'NO-SUCH-OFFER', guestCount: 2 });
    expect([otherOffer.status, otherOffer.body.code]).to.deep.equal([422, 'offer_unavailable']);
    const soon = await bookableEvent({ days: 1 / 24 });
    expect((await quote({ eventSlug: soon.event.slug, offerCode: soon.offer.code, guestCount: 2 })).body.code).to.equal('booking_closed');
    const bad = await quote({ eventSlug: event.slug, offerCode: offer.code, guestCount: 0, voucherCode: 'GIFT' });
    expect(bad.status).to.equal(400);
  });

  it('is rate-limited per client address (60 per 10 minutes, then 429 with Retry-After)', async () => {
    const { event, offer } = await bookableEvent();
    const fixed = { 'x-forwarded-for': '198.20.250.9' };
    for (let i = 0; i < 60; i++) expect((await quote({ eventSlug: event.slug, offerCode: offer.code, guestCount: 2 }, fixed)).status).to.equal(200);
    const limited = await quote({ eventSlug: event.slug, offerCode: offer.code, guestCount: 2 }, fixed);
    expect(limited.status).to.equal(429);
    expect(limited.headers.get('retry-after')).to.match(/^\d+$/);
    expect((await quote({ eventSlug: event.slug, offerCode: offer.code, guestCount: 2 })).status).to.equal(200);
  });
});
