import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDomainEventBus } from '../../server/domain/events.ts';
import { BOOKING_EXTENSIONS, PAYABLES, POLICY_REGISTRY, QUEUES, RECORDS, SUBSCRIBERS } from '../../server/modules/index.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Module records and domain events (issue 22 items 1–2; DESIGN.md "Modules", "Domain events"). Every module is
 * declared by one record in its module.ts (issue 33: its index.ts is only what other modules may use); the global tables are derived from the records; each event's
 * subscribers run in a declared order — printed here, so adding, removing or reordering an effect is a visible
 * diff in review.
 */
describe('module records and domain events', () => {
  it('each event’s subscribers, in the order they run', () => {
    const table = createDomainEventBus(SUBSCRIBERS).table();
    console.log(`      ${JSON.stringify(table, null, 2).replace(/\n/g, '\n      ')}`);
    const forget = (event: string) => `1000 in-transaction catalog.forget-answers:${event}`;
    expect(table).to.deep.equal({
      // Issue 32 §4.2: a password reset or a ban ends the account's sessions, then removes its passkeys.
      'account.signInRevoked': ['5 in-transaction auth.end-sessions-on-sign-in-revoked', '10 in-transaction passkeys.remove-on-sign-in-revoked'],
      // Issue 33: the catalog's own writes (shows, events, offers, their items, the setup, a stored image) as an event.
      'catalog.changed': [forget('catalog.changed')],
      // Issue 33: a customer merge moves the later modules' rows of the duplicate through their own subscribers.
      'customer.merged': ['10 in-transaction waitlist.move-on-customer-merge', '20 in-transaction inquiries.move-on-customer-merge'],
      // Issue 33: the business events a hold and a check-in send are booking's subscribers, not the commands' own calls.
      'hold.placed': [forget('hold.placed'), '1200 after-commit booking.business-event-created'],
      'holds.expired': [
        '10 in-transaction email.hold-expired',
        '20 in-transaction promoCodes.release-on-expiry',
        '30 in-transaction vouchers.release-on-expiry',
        '40 in-transaction waitlist.seats-freed-on-expiry',
        forget('holds.expired'),
        '1100 after-commit system.count-expired-holds',
      ],
      // Issue 36 §3: the inquiry form's event, for the webhooks (written in the create command's transaction).
      'inquiry.received': ['900 in-transaction webhooks.inquiry.received'],
      // Issue 36 §3: each event a webhook tells of writes its outbox messages late in the publisher's transaction.
      'payment.captured': [
        '10 in-transaction analytics.meta-purchase',
        '20 in-transaction referrals.earn-commission',
        '900 in-transaction webhooks.payment.succeeded',
        '1100 after-commit system.count-captured-payment',
      ],
      'payment.failed': ['1100 after-commit system.count-failed-payment'],
      'payment.partiallyRefunded': ['900 in-transaction webhooks.payment.partially-refunded', '1100 after-commit system.count-partial-refund'],
      'payment.refunded': ['10 in-transaction referrals.void-on-refund', '900 in-transaction webhooks.payment.refunded', '1100 after-commit system.count-refund'],
      // Issue 33: the refund's e-mail is the email module's subscriber (payments imports nothing of email).
      'refund.settled': ['10 in-transaction email.refund-outcome'],
      'reservation.cancelled': [
        '10 in-transaction payments.refunds',
        '20 in-transaction promoCodes.release-on-cancel',
        '30 in-transaction vouchers.release-on-cancel',
        '40 in-transaction waitlist.seats-freed-on-cancel',
        '50 in-transaction referrals.void-on-cancel',
        '90 in-transaction email.cancellation',
        '900 in-transaction webhooks.reservation.cancelled',
        forget('reservation.cancelled'),
        '1100 after-commit system.count-cancellation',
        '1200 after-commit booking.business-event-cancelled',
      ],
      'reservation.checkedIn': ['900 in-transaction webhooks.reservation.checked_in', '1200 after-commit booking.business-event-checked-in'],
      'reservation.confirmed': [
        '5 in-transaction email.confirmation',
        '10 in-transaction promoCodes.retake-on-confirm',
        // Issue 36 §3: before the voucher's retake, which publishes voucher.redeemed: a receiver hears of the confirmation first.
        '15 in-transaction webhooks.reservation.confirmed',
        '20 in-transaction vouchers.retake-on-confirm',
        forget('reservation.confirmed'),
        '1100 after-commit system.count-confirmation',
      ],
      // Issue 34 §1: a guest paying later whose seats are held until a deadline is e-mailed (the seats stay taken: nothing to forget).
      'reservation.paymentDeferred': ['10 in-transaction email.pay-later'],
      'reservation.noShow': ['900 in-transaction webhooks.reservation.no_show', forget('reservation.noShow'), '1100 after-commit system.count-no-show'],
      'reservation.resized': [forget('reservation.resized')],
      'showEvent.cancelled': ['10 in-transaction reservations', '20 in-transaction waitlist', forget('showEvent.cancelled')],
      // Issue 33: an offer holds seats (and an archived one frees them): the waiting list publishes, the catalog forgets.
      // Issue 36 §3: published by the vouchers module's retake-on-confirm once a voucher's credit is spent for good.
      'voucher.redeemed': ['900 in-transaction webhooks.voucher.redeemed'],
      // Issue 36 §1: a gift voucher sold online (its order's payment) is told to the venue's webhooks.
      'voucher.sold': ['900 in-transaction webhooks.voucher.sold'],
      'waitlist.offerWithdrawn': [forget('waitlist.offerWithdrawn')],
      'waitlist.offered': ['900 in-transaction webhooks.waitlist.offer_made', forget('waitlist.offered')],
    });
  });

  it('the booking’s extensions, in their declared order', () => {
    expect(BOOKING_EXTENSIONS.priceAdjustments.map((a) => `${a.order} ${a.name}`)).to.deep.equal(['10 promo-code', '20 voucher', '30 referral']);
    expect(BOOKING_EXTENSIONS.seatClaims.map((c) => c.name)).to.deep.equal(['waitlist-offer']);
  });

  it('what payments can settle: each payable kind, declared once, by its module', () => {
    expect(RECORDS.flatMap((record) => (record.payables ?? []).map((payable) => `${record.tag}: ${payable.kind}`))).to.deep.equal(['booking: reservation', 'giftVouchers: voucher_order']);
    expect(PAYABLES.map((payable) => payable.kind)).to.deep.equal(['reservation', 'voucher_order']);
  });

  it('one record per module folder, named by its tag, and the global tables are the records’ union', () => {
    const folders = fs.readdirSync(path.join(ROOT, 'server/modules'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    expect(RECORDS.map((r) => r.tag).sort()).to.deep.equal(folders);
    for (const tag of folders) expect(fs.existsSync(path.join(ROOT, 'server/modules', tag, 'module.ts')), `server/modules/${tag}/module.ts`).to.equal(true);
    expect(QUEUES.map((q) => q.name).sort()).to.deep.equal(RECORDS.flatMap((r) => (r.jobs ?? []).map((q) => q.name)).sort());
    const declared = RECORDS.flatMap((r) => r.policy ?? []);
    expect(POLICY_REGISTRY.slice(0, declared.length)).to.deep.equal(declared);
  });

  it('no file in server/ is imported for its side effects (a module declares its effects in its record)', () => {
    const bare: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name)) {
          for (const [n, line] of fs.readFileSync(file, 'utf8').split('\n').entries()) {
            if (/^\s*import\s+['"][^'"]+['"]/.test(line)) bare.push(`${path.relative(ROOT, file)}:${n + 1}: ${line.trim()}`);
          }
        }
      }
    };
    walk(path.join(ROOT, 'server'));
    expect(bare).to.deep.equal([]);
  });

  it('no module keeps a registry other modules fill at import', () => {
    // The five registries this replaced were module-level maps filled by `register…`/`on…` calls at import.
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (entry.name.endsWith('.ts')) {
          const text = fs.readFileSync(file, 'utf8');
          for (const name of ['registerSeatClaim', 'onHoldsExpired', 'registerCancellationHook', 'onPaymentOutcome', 'registerPriceAdjustment', 'onReservationStatus']) {
            if (text.includes(`${name}(`)) offenders.push(`${path.relative(ROOT, file)}: ${name}`);
          }
        }
      }
    };
    walk(path.join(ROOT, 'server'));
    expect(offenders).to.deep.equal([]);
  });

  it('no module keeps per-app state in a module-level WeakMap: a module’s services are built at boot (record `services`)', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (entry.name.endsWith('.ts') && /new WeakMap<\s*(AppContext|App\b|Pick<AppContext)/.test(fs.readFileSync(file, 'utf8'))) offenders.push(path.relative(ROOT, file));
      }
    };
    walk(path.join(ROOT, 'server/modules'));
    walk(path.join(ROOT, 'server/assistant'));
    expect(offenders).to.deep.equal([]);
  });
});
