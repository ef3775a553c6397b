import { expect } from 'chai';
import { loadConfig } from '../../../server/platform/config.ts';
import { notifyNextWaiting } from '../../../server/modules/waitlist/commands/notifyNextWaiting.ts';
import { waitlistOfferPage } from '../../../server/modules/waitlist/commands/offerSeats.ts';
import { deliveredNow } from '../../helpers/mail.ts';
import { bookableEvent, contact } from '../booking/factories.ts';
import { callbackFor, checkout, fromNewAddress, hold, ipn, paymentsSpec } from '../payments/helpers.ts';

/**
 * Issue 34 §3: the waiting-list offer works end to end through the public API — a sold-out event, a guest joins
 * the waiting list, seats free up, the offer e-mail links to the guest site's offer page in the guest's language
 * (WAITLIST_OFFER_URL, by default `<PUBLIC_SITE_URL>/{locale}/waitlist-offer`), and the guest, with the token from
 * that link, holds the offered seats and pays for them.
 */
describe('waitlist: claiming an offer through the public API, to a paid booking @db', () => {
  const spec = paymentsSpec({ config: () => ({ waitlistOfferHours: 24, waitlistOfferUrl: 'https://site.test/{locale}/waitlist-offer' }) });

  it('join → seats freed → offer e-mail (the site’s page, the guest’s locale) → hold with its token → VNPay → CONFIRMED', async () => {
    const knex = spec.server.db.knex;
    const { event, offer } = await bookableEvent({ capacity: 4 });
    const full = await hold(spec.server, { eventSlug: event.slug, offerCode: offer.code, guests: 4, who: 81 });
    const soldOut = await spec.server.request<any>('GET', `/api/public/show-events/${event.slug}`);
    expect(soldOut.body.state).to.equal('SOLD_OUT');

    const joined = await spec.server.request<any>('POST', '/api/waitlist', {
      headers: fromNewAddress(),
      body: { eventSlug: event.slug, guestCount: 2, name: 'Chi Waiting', email: 'chi.waiting@example.com', locale: 'vi' },
    });
    expect(joined.status, JSON.stringify(joined.body)).to.equal(201);
    expect(joined.body.status).to.equal('WAITING');

    // The full booking is cancelled by its guest; the waiting list's job offers the freed seats.
    const cancelled = await spec.server.request<any>('POST', `/api/public/reservations/${full.reference}/cancel`, { headers: { 'x-reservation-token': full.token }, body: {} });
    expect(cancelled.status).to.equal(200);
    expect(await notifyNextWaiting(spec.server.app.context, event.id)).to.equal(1);

    const mail = await knex('email_messages').where({ to_address: 'chi.waiting@example.com', template: 'waitlist-offer' }).first();
    expect(mail.locale).to.equal('vi');
    const delivered = await deliveredNow(knex, mail.id);
    const link = new URL(delivered.text.match(/https:\/\/site\.test\/\S+/)![0]);
    expect(link.origin + link.pathname).to.equal('https://site.test/vi/waitlist-offer');
    expect(link.searchParams.get('event')).to.equal(event.slug);
    const token = link.searchParams.get('token')!;
    expect(token).to.match(/^[A-Za-z0-9_-]{43}$/);

    // Another guest cannot take the offered seats; the offered guest can, with the link's token.
    const other = await spec.server.request<any>('POST', '/api/public/reservations', { headers: fromNewAddress(), body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 3, contact: contact(82) } });
    expect(other.body.code).to.equal('not_enough_seats');
    const claimed = await hold(spec.server, { eventSlug: event.slug, offerCode: offer.code, guests: 2, extra: { waitlistToken: token, contact: { name: 'Chi Waiting', email: 'chi.waiting@example.com', locale: 'vi' } } });
    const entry = await knex('waitlist_entries').where({ email: 'chi.waiting@example.com' }).first('status', 'reservation_id');
    expect(entry).to.deep.equal({ status: 'CONVERTED', reservation_id: claimed.id });

    const started = await checkout(spec.server, claimed, { method: 'VNPAY' });
    expect(started.status, JSON.stringify(started.body)).to.equal(201);
    expect((await ipn(spec.server, callbackFor(spec.vnpay, started.body.vnpay.paymentUrl))).body.RspCode).to.equal('00');
    const mine = await spec.server.request<any>('GET', `/api/public/reservations/${claimed.reference}`, { headers: { 'x-reservation-token': claimed.token } });
    expect(mine.body).to.include({ status: 'CONFIRMED', guestCount: 2 });
    expect(mine.body.payment).to.include({ state: 'PAID', dueVnd: 0 });
    // A used token books nothing more.
    const again = await spec.server.request<any>('POST', '/api/public/reservations', {
      headers: fromNewAddress(),
      body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: contact(83), waitlistToken: token },
    });
    expect(again.body.code).to.equal('waitlist_offer_invalid');
  });

  it('WAITLIST_OFFER_URL derives from PUBLIC_SITE_URL; {locale} is the guest’s site locale', () => {
    const config = loadConfig({ PUBLIC_SITE_URL: 'https://venue.example/', SITE_LOCALES: 'en,vi' });
    expect(config.waitlistOfferUrl).to.equal('https://venue.example/{locale}/waitlist-offer');
    expect(waitlistOfferPage(config, 'vi')).to.equal('https://venue.example/vi/waitlist-offer');
    expect(waitlistOfferPage(config, 'vi-VN')).to.equal('https://venue.example/vi/waitlist-offer');
    expect(waitlistOfferPage(config, 'fr')).to.equal('https://venue.example/en/waitlist-offer');
    const explicit = loadConfig({ WAITLIST_OFFER_URL: 'https://book.venue.example/offer' });
    expect(waitlistOfferPage(explicit, 'vi')).to.equal('https://book.venue.example/offer');
  });
});
