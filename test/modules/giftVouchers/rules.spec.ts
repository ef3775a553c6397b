import { expect } from 'chai';
import { amountOffered, deliveryDateAllowed, deliveryStart, effectiveOrderStatus, newOrderReference, voucherExpiry } from '../../../server/modules/giftVouchers/rules.ts';

/** The gift-voucher order's pure rules (issue 36 §1): the venue's terms, the dates in its time zone, the expiry. */
describe('gift vouchers: rules', () => {
  const zone = 'Asia/Ho_Chi_Minh';

  it('offers the listed amounts, and others only within both free bounds', () => {
    const terms = { amountsVnd: [500_000, 1_000_000], minVnd: 200_000, maxVnd: 5_000_000 };
    expect([500_000, 750_000, 200_000, 5_000_000].map((a) => amountOffered(a, terms))).to.deep.equal([true, true, true, true]);
    expect([199_999, 5_000_001].map((a) => amountOffered(a, terms))).to.deep.equal([false, false]);
    expect(amountOffered(750_000, { ...terms, minVnd: null, maxVnd: null })).to.equal(false);
    expect(amountOffered(1_000_000, { ...terms, minVnd: null, maxVnd: null })).to.equal(true);
  });

  it('takes delivery dates from today to 365 days ahead, in the venue’s calendar', () => {
    // 23:30 UTC on 31 Dec is already 1 Jan in Vietnam (UTC+7).
    const now = new Date('2026-12-31T23:30:00Z');
    expect(deliveryDateAllowed('2026-12-31', zone, now)).to.equal(false);
    expect(deliveryDateAllowed('2027-01-01', zone, now)).to.equal(true);
    expect(deliveryDateAllowed('2028-01-01', zone, now)).to.equal(true);
    expect(deliveryDateAllowed('2028-01-02', zone, now)).to.equal(false);
  });

  it('sends at 08:00 on the delivery date, at once when it is today', () => {
    const now = new Date('2026-12-01T03:00:00Z'); // 10:00 in Vietnam
    expect(deliveryStart('2026-12-01', zone, now)).to.equal(undefined);
    expect(deliveryStart('2026-12-02', zone, now)?.toISOString()).to.equal('2026-12-02T01:00:00.000Z');
  });

  it('keeps a voucher valid through the same calendar day `months` later (venue time), the end of a short month included', () => {
    expect(voucherExpiry(new Date('2026-11-28T10:00:00Z'), 36, zone).toISOString()).to.equal('2029-11-28T17:00:00.000Z');
    expect(voucherExpiry(new Date('2027-01-31T05:00:00Z'), 1, zone).toISOString()).to.equal('2027-02-28T17:00:00.000Z');
  });

  it('reads a PENDING order past its deadline as EXPIRED, and draws unambiguous references', () => {
    const now = new Date('2026-12-01T00:00:00Z');
    expect(effectiveOrderStatus({ status: 'PENDING', payBy: new Date('2026-11-30T23:59:59Z') }, now)).to.equal('EXPIRED');
    expect(effectiveOrderStatus({ status: 'PENDING', payBy: new Date('2026-12-01T00:00:01Z') }, now)).to.equal('PENDING');
    expect(effectiveOrderStatus({ status: 'PAID', payBy: new Date('2026-11-01T00:00:00Z') }, now)).to.equal('PAID');
    expect(newOrderReference()).to.match(/^GO-[2-9A-HJKMNP-Z]{8}$/);
  });
});
