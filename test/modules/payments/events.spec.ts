import { expect } from 'chai';
import { capturedEvents, startFakePostHog, type FakePostHog } from '../../helpers/fakePosthog.ts';
import { callbackFor, checkout, fromNewAddress, ipn, paymentsSpec } from './helpers.ts';
import { bookableEvent } from '../booking/factories.ts';
import { apiKeyWith, requestsAs } from '../shows/catalog.ts';

/**
 * One full booking's business events (spec §6.1–6.2), read from a local fake PostHog: lead → hold → checkout →
 * IPN → refund, and a failed payment. Properties describe the booking and never the guest.
 */
describe('payments: business events of a full booking (fake PostHog)', () => {
  let posthog: FakePostHog;
  before(async () => {
    posthog = await startFakePostHog();
  });
  after(() => posthog.close());
  const spec = paymentsSpec({ config: () => ({ analyticsEnabled: true, posthogApiKey: 'phc_test', posthogHost: posthog.url }) });

  it('lead → hold → checkout → IPN → refund sends reservation created, checkout started, payment completed, refund processed; a failure sends payment failed', async () => {
    const server = spec.server;
    const guest = { honorific: 'Ms', name: 'Nguyễn Thị Private', email: 'private.guest@example.com', phone: '+84 90 999 8888', locale: 'en' };
    const { event, offer, show } = await bookableEvent();
    const lead = await server.request<any>('POST', '/api/reservations/customer-lead', { body: { ...guest, eventSlug: event.slug, guestCount: 2 }, headers: fromNewAddress() });
    expect(lead.status).to.equal(201);
    const created = await server.request<any>('POST', '/api/public/reservations', {
      body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 2, leadReference: lead.body.leadReference, analytics: { distinctId: 'ph-distinct-1', sessionId: 'ph-session-1' }, customerNote: 'a private note' },
      headers: fromNewAddress(),
    });
    expect(created.status).to.equal(201);
    const held = { reference: created.body.reference as string, token: created.body.accessToken as string };
    const started = await checkout(server, held, { method: 'VNPAY' });
    expect((await ipn(server, callbackFor(spec.vnpay, started.body.vnpay.paymentUrl))).body.RspCode).to.equal('00');
    const admin = requestsAs(server, await apiKeyWith('payments:refund'));
    expect((await admin.post(`/api/payments/${started.body.paymentId}/refunds`, { amountVnd: 100_000, reason: 'goodwill' })).body.status).to.equal('SUCCEEDED');

    const other = await server.request<any>('POST', '/api/public/reservations', { body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 1, contact: guest }, headers: fromNewAddress() });
    const failing = await checkout(server, { reference: other.body.reference, token: other.body.accessToken }, { method: 'VNPAY' });
    await ipn(server, callbackFor(spec.vnpay, failing.body.vnpay.paymentUrl, { vnp_ResponseCode: '24', vnp_TransactionStatus: '02' }));

    await server.app.context.analytics.flush();
    const events = capturedEvents(posthog.requests);
    const mine = events.filter((e) => e.properties?.reservation_reference === held.reference);
    expect(mine.map((e) => e.event)).to.deep.equal(['reservation created', 'checkout started', 'payment completed', 'refund processed']);
    for (const e of mine) {
      expect(e.distinct_id).to.equal('ph-distinct-1');
      expect(e.properties).to.include({ show_code: show.code, show_slug: show.slug, guest_count: 2, has_referral: false });
    }
    const [, checkoutStarted, completed, refunded] = mine;
    expect(checkoutStarted.properties).to.include({ payment_gateway: 'VNPAY', amount_vnd: started.body.amountVnd });
    expect(completed.properties).to.include({ payment_gateway: 'VNPAY', payment_status: 'SUCCESS', amount_vnd: started.body.amountVnd });
    expect(refunded.properties).to.include({ payment_gateway: 'VNPAY', refund_status: 'SUCCEEDED', final_payment_status: 'PARTIALLY_REFUNDED', refund_amount_vnd: 100_000 });
    const failed = events.filter((e) => e.properties?.reservation_reference === other.body.reference).map((e) => [e.event, e.properties.payment_status ?? null]);
    expect(failed).to.deep.equal([
      ['reservation created', null],
      ['checkout started', null],
      ['payment failed', 'FAILED'],
    ]);
    // Nothing personal, no secrets, no gateway ids.
    const text = JSON.stringify(events);
    for (const secret of [guest.name, guest.email, guest.phone, 'Private', 'a private note', held.token, started.body.vnpay.txnRef, '14226112', lead.body.leadReference]) {
      expect(text).not.to.include(secret);
    }
  });
});
