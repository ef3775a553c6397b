import { expect } from 'chai';
import { addDays, localToday } from '../../../server/domain/venueTime.ts';
import { showWithEvent } from './factories.ts';
import { local } from '../catalog/helpers.ts';
import { buildCustomer } from '../customers/factories.ts';
import { buildPayment } from '../payments/factories.ts';
import { buildReservation } from '../reservations/factories.ts';
import { catalogSpec } from '../shows/catalog.ts';

/**
 * The analytics routes leak nothing personal (issue 11, spec §6.4): bookings whose names, e-mails, phones, notes,
 * analytics ids, references and payment references are distinctive strings, read back over several ranges
 * (wide enough that nothing is suppressed, and narrow enough that groups are small): none of the strings appears
 * in any response.
 */
describe('analytics: no personal data in any aggregate', () => {
  const spec = catalogSpec();
  const secrets: string[] = [];

  before(async () => {
    const k = spec.server.db.knex;
    const { event, offer } = await showWithEvent({ code: 'PII' });
    const today = localToday('Asia/Ho_Chi_Minh');
    const days = [addDays(today, -1), addDays(today, -3), '2026-06-10', '2026-06-11'];
    for (let n = 0; n < 12; n++) {
      const tag = `Qzx${n}Wv`;
      const name = `Zebulon ${tag} Quokkafield`;
      const email = `quokka.${tag.toLowerCase()}@pii-marker.test`;
      const phone = `+84 91 7${String(n).padStart(2, '0')} 4242`;
      const customerId = await buildCustomer({ name, email: email.toUpperCase(), phone });
      const day = days[n % days.length];
      const r = await buildReservation({
        eventId: event.id,
        offerId: offer.id,
        customerId,
        createdAt: local(day, '19:00'),
        status: n % 5 === 4 ? 'CHECKED_IN' : 'CONFIRMED',
        customerNote: `NOTE-${tag}-vegan-peanut-allergy`,
        staffNotes: `STAFFNOTE-${tag}`,
        analyticsSessionId: `SESSION-${tag}`,
      });
      await buildPayment(r.id, {
        amount: 2_000_000 + n,
        gateway: n % 2 ? 'CASH' : 'VNPAY',
        txnRef: `TXNREF${tag}`,
        note: `PAYNOTE-${tag}`,
        refunds: n % 3 === 0 ? [{ amount: 1000, reason: `REFUNDREASON-${tag}`, gatewayRefundId: `GWREFUND${tag}` }] : [],
      });
      await k('customer_leads').insert({ customer_id: customerId, name, email, phone, reference_hash: Buffer.from(tag), expires_at: new Date(), analytics_distinct_id: `DISTINCT-${tag}` });
      secrets.push(name, email, `Quokkafield`, phone, phone.replace(/\D/g, ''), `NOTE-${tag}`, `STAFFNOTE-${tag}`, `SESSION-${tag}`, `DISTINCT-${tag}`, `TXNREF${tag}`, `PAYNOTE-${tag}`, `REFUNDREASON-${tag}`, `GWREFUND${tag}`, r.reference, r.id, customerId);
    }
  });

  it('answers every analytics route over several ranges without a name, e-mail, phone, note, id or reference', async () => {
    const today = localToday('Asia/Ho_Chi_Minh');
    const ranges = ['', `?from=${addDays(today, -1)}&to=${today}`, `?from=${addDays(today, -3)}&to=${addDays(today, -3)}`, '?from=2026-06-10&to=2026-06-10', '?from=2026-01-01&to=2026-12-31', `?from=${addDays(today, -365)}&to=${today}`];
    const routes = ['/api/analytics/summary', '/api/analytics/top-shows', '/api/analytics/top-shows?sort=guests&limit=50', '/api/analytics/customer-intelligence'];
    let seenActive = false;
    let checked = 0;
    for (const route of routes) {
      for (const range of ranges) {
        const path = route.includes('?') ? `${route}${range.replace('?', '&')}` : `${route}${range}`;
        const res = await spec.as(spec.callers.superuser).get(path);
        expect(res.status, path).to.equal(200);
        const text = res.text.toLowerCase();
        for (const secret of secrets) expect(text, `${path} contains ${secret}`).not.to.include(secret.toLowerCase());
        expect(text).not.to.match(/@|quokka|qzx\d+wv/);
        if (route.includes('customer-intelligence') && res.body.customers.active.value === 12) seenActive = true;
        checked++;
      }
    }
    expect(checked).to.equal(routes.length * ranges.length);
    // The wide ranges did read the seeded people (the check above is not vacuous).
    expect(seenActive).to.equal(true);
  });
});
