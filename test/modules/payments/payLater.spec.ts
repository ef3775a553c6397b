import { expect } from 'chai';
import { expireHolds } from '../../../server/modules/booking/commands/expireHolds.ts';
import { EXPIRE_HOLDS_QUEUE } from '../../../server/modules/booking/index.ts';
import { sendHoldExpired, sendTransferReminder, TRANSFER_REMINDER_QUEUE } from '../../../server/modules/email/commands/guestMessages.ts';
import { asSuperuser } from '../../helpers/server.ts';
import { BANK, checkout, hold, paymentsSpec, type Held } from './helpers.ts';

/**
 * Issue 34 §1: seats a guest chose to pay for later are not lost. Paying at the venue confirms the booking with the
 * amount due at the door (within the venue's caps; above them refused, or held for staff's approval), a bank transfer
 * keeps the hold until a deadline (never past the cut-off) with its details, a reminder and the hold-expired message
 * if it lapses; the guest's view, the door and staff read the same state. The e-mails and jobs are written in the
 * checkout's transaction (hence @db).
 */
describe('payments: paying later keeps the seats (pay at the venue, bank transfer) @db', () => {
  const spec = paymentsSpec();
  const knex = () => spec.server.db.knex;
  const HOUR = 3_600_000;

  const setup = (body: Record<string, unknown>) => spec.server.request<any>('PATCH', '/api/commercial-setup', { headers: asSuperuser, body });
  beforeEach(async () => {
    const res = await setup({ payAtVenueMaxGuests: null, payAtVenueMaxDaysAhead: null, payAtVenueOverLimit: 'REFUSE', payAtVenueApprovalHours: 48, bankTransferHoldHours: 24, bankTransferReminderHours: 6 });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  });

  const row = (held: Held) => knex()('reservations').where({ id: held.id }).first();
  const mails = (held: Held, template: string) => knex()('email_messages').where({ reservation_id: held.id, template }).orderBy('created_at').select('locale', 'subject', 'text_body', 'to_address');
  const options = (held: Held) => spec.server.request<any>('GET', `/api/public/reservations/${held.reference}/checkout`, { headers: { 'x-reservation-token': held.token } });
  const guestView = (held: Held, locale?: string) =>
    spec.server.request<any>('GET', `/api/public/reservations/${held.reference}${locale ? `?locale=${locale}` : ''}`, { headers: { 'x-reservation-token': held.token } });
  const jobsOf = async (queue: string, held: Held) =>
    ((await knex().raw(`select start_after from pgboss.job where name = ? and data->>'reservationId' = ? order by start_after`, [queue, held.id])) as { rows: Array<{ start_after: Date }> }).rows.map((r) =>
      new Date(r.start_after).toISOString(),
    );
  const vnd = (amount: number) => `${new Intl.NumberFormat('en-US').format(amount)} VND`;

  describe('pay at the venue', () => {
    it('within the caps: CONFIRMED at once, the e-mail says what is due at the door, the guest and the door see it; the cash recorded clears it', async () => {
      const held = await hold(spec.server, { guests: 2, extra: { contact: { name: 'Anh Venue', email: 'venue.payer@example.com', locale: 'en' } } });
      const offered = await options(held);
      expect(offered.body.methods).to.include('PAY_AT_VENUE');
      expect(offered.body.payAtVenue).to.deep.equal({ outcome: 'CONFIRMED', payBy: null });
      expect(offered.body.unavailable).to.deep.equal([]);

      const res = await checkout(spec.server, held, { method: 'PAY_AT_VENUE' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ status: 'CONFIRMED', holdExpiresAt: null, paymentId: null });
      expect(res.body.payAtVenue).to.include({ outcome: 'CONFIRMED', amountDueVnd: held.totalVnd, instructionsLocale: 'en' });
      const confirmed = await row(held);
      expect(confirmed).to.include({ status: 'CONFIRMED', confirmed_by: 'SYSTEM', pay_later_method: 'PAY_AT_VENUE', hold_expires_at: null });
      expect(confirmed.check_in_token_hash).to.not.equal(null);

      const [mail] = await mails(held, 'reservation-confirmation');
      expect(mail).to.include({ locale: 'en', to_address: 'venue.payer@example.com' });
      expect(mail.text_body).to.contain(`To pay at the venue: ${vnd(held.totalVnd)}. Please pay in cash or by card at the box office when you arrive`);

      // The guest's page, in either language (the text's language is said), and the ticket exists.
      const en = await guestView(held);
      expect(en.body.payLater).to.deep.include({ state: 'DUE_AT_VENUE', method: 'PAY_AT_VENUE', amountDueVnd: held.totalVnd, deadline: null, instructionsLocale: 'en', bankTransfer: null });
      expect(en.headers.get('content-language')).to.equal('en');
      const vi = await guestView(held, 'vi');
      expect(vi.headers.get('content-language')).to.equal('vi');
      expect(vi.body.payLater).to.include({ instructionsLocale: 'vi' });
      expect(vi.body.payLater.instructions).to.match(/^Đặt chỗ của quý khách đã được xác nhận/);
      expect(vi.body.locale).to.equal('en'); // the reservation's own locale (its e-mails') is unchanged
      expect((await spec.server.request('GET', `/api/public/reservations/${held.reference}/ticket`, { headers: { 'x-reservation-token': held.token } })).status).to.equal(200);

      // The door admits the guest and shows what to collect.
      const door = await spec.server.request<any>('GET', `/api/check-ins/${held.id}`, { headers: asSuperuser });
      expect(door.status, JSON.stringify(door.body)).to.equal(200);
      expect(door.body.reservation.payment).to.deep.equal({ paid: false, totalVnd: held.totalVnd, paidVnd: 0, dueVnd: held.totalVnd, payLaterMethod: 'PAY_AT_VENUE' });

      const cash = await spec.server.request<any>('POST', '/api/payments', { headers: asSuperuser, body: { reservationId: held.id, method: 'CASH' } });
      expect(cash.status, JSON.stringify(cash.body)).to.equal(201);
      expect((await guestView(held)).body.payLater).to.equal(null);
      expect((await guestView(held)).body.payment).to.include({ state: 'PAID', dueVnd: 0 });
    });

    it('above a cap the venue refuses: not offered (listed with why), and checkout is 422 pay_at_venue_over_limit on body/method; nothing changes', async () => {
      expect((await setup({ payAtVenueMaxGuests: 4, payAtVenueOverLimit: 'REFUSE' })).status).to.equal(200);
      const big = await hold(spec.server, { guests: 6 });
      const offered = await options(big);
      expect(offered.body.methods).to.deep.equal(['VNPAY', 'BANK_TRANSFER']);
      expect(offered.body.payAtVenue).to.equal(null);
      expect(offered.body.unavailable).to.have.length(1);
      expect(offered.body.unavailable[0]).to.include({ method: 'PAY_AT_VENUE', code: 'pay_at_venue_over_limit' });
      const refused = await checkout(spec.server, big, { method: 'PAY_AT_VENUE' });
      expect(refused.status).to.equal(422);
      expect(refused.body.code).to.equal('pay_at_venue_over_limit');
      expect(refused.body.detail).to.contain('parties of up to 4 guests');
      expect(refused.body.errors[0]).to.include({ path: 'body/method', code: 'pay_at_venue_over_limit' });
      expect(await row(big)).to.include({ status: 'HELD', pay_later_method: null });

      // A party within it, for a performance further ahead than the days cap, is refused for that one.
      expect((await setup({ payAtVenueMaxDaysAhead: 5 })).status).to.equal(200);
      const far = await hold(spec.server, { guests: 2 });
      const tooFar = await checkout(spec.server, far, { method: 'PAY_AT_VENUE' });
      expect(tooFar.status).to.equal(422);
      expect(tooFar.body.detail).to.contain('performances up to 5 days ahead').and.not.contain('guests');
    });

    it('above a cap the venue approves itself: held until the approval deadline with an e-mail; staff confirm it and the confirmation says what is due', async () => {
      expect((await setup({ payAtVenueMaxGuests: 4, payAtVenueOverLimit: 'STAFF_APPROVAL', payAtVenueApprovalHours: 48 })).status).to.equal(200);
      const big = await hold(spec.server, { guests: 6 });
      const created = new Date((await row(big)).created_at);
      const deadline = new Date(created.getTime() + 48 * HOUR).toISOString();
      expect((await options(big)).body.payAtVenue).to.deep.equal({ outcome: 'AWAITING_APPROVAL', payBy: deadline });

      const res = await checkout(spec.server, big, { method: 'PAY_AT_VENUE' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ status: 'HELD', holdExpiresAt: deadline });
      expect(res.body.payAtVenue).to.include({ outcome: 'AWAITING_APPROVAL', payBy: deadline, instructionsLocale: 'vi' });
      expect(await row(big)).to.include({ status: 'HELD', pay_later_method: 'PAY_AT_VENUE' });
      expect(await jobsOf(EXPIRE_HOLDS_QUEUE, big)).to.include(deadline);
      const [pending] = await mails(big, 'pay-at-venue-pending');
      expect(pending.locale).to.equal('vi');
      expect(pending.subject).to.match(/^Đang chờ nhà hát chấp thuận/);
      expect((await guestView(big)).body.payLater).to.include({ state: 'AWAITING_APPROVAL', deadline, method: 'PAY_AT_VENUE' });

      // The seats are not released at the first hold's end (the run sweeps every hold: other tests' go).
      await expireHolds(spec.server.app.context, new Date(Date.now() + HOUR));
      expect((await row(big)).status).to.equal('HELD');

      const staff = await spec.server.request<any>('GET', `/api/reservations/${big.id}`, { headers: asSuperuser });
      expect(staff.body).to.include({ status: 'HELD', payLaterMethod: 'PAY_AT_VENUE', holdExpiresAt: deadline });
      const approved = await spec.server.request<any>('POST', `/api/reservations/${big.id}/confirm`, { headers: asSuperuser });
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      const [mail] = await mails(big, 'reservation-confirmation');
      expect(mail.text_body).to.match(/Thanh toán tại quầy: [\d.]+\s₫\. Vui lòng thanh toán bằng tiền mặt hoặc thẻ tại quầy vé khi đến/);
      expect((await guestView(big)).body.payLater).to.include({ state: 'DUE_AT_VENUE', deadline: null });
    });

    it('left unapproved, the hold lapses at the deadline: EXPIRED, and the hold-expired e-mail says why', async () => {
      expect((await setup({ payAtVenueMaxGuests: 1, payAtVenueOverLimit: 'STAFF_APPROVAL', payAtVenueApprovalHours: 2 })).status).to.equal(200);
      const held = await hold(spec.server, { guests: 2, extra: { contact: { name: 'Late Approval', email: 'late.approval@example.com', locale: 'en' } } });
      const res = await checkout(spec.server, held, { method: 'PAY_AT_VENUE' });
      const after = new Date(new Date(res.body.holdExpiresAt).getTime() + 1000);
      await expireHolds(spec.server.app.context, new Date(after.getTime() - 2000));
      expect((await row(held)).status).to.equal('HELD');
      await expireHolds(spec.server.app.context, after);
      expect((await row(held)).status).to.equal('EXPIRED');
      expect(await sendHoldExpired(spec.server.app.context, [held.id], after)).to.equal(1);
      const [mail] = await mails(held, 'hold-expired');
      expect(mail.text_body).to.contain('the venue could not approve paying at the venue in time');
    });
  });

  describe('bank transfer', () => {
    it('keeps the seats until the deadline, e-mails the details, reminds once before it, and staff recording the transfer confirms', async () => {
      const held = await hold(spec.server, { guests: 2, extra: { contact: { name: 'Binh Transfer', email: 'transfer.payer@example.com', locale: 'en' } } });
      const created = new Date((await row(held)).created_at);
      const deadline = new Date(created.getTime() + 24 * HOUR).toISOString();
      expect((await options(held)).body.bankTransfer).to.deep.equal({ payBy: deadline });

      const res = await checkout(spec.server, held, { method: 'BANK_TRANSFER' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ status: 'HELD', holdExpiresAt: deadline });
      const reference = res.body.bankTransfer.transferReference as string;
      expect(res.body.bankTransfer).to.deep.include({ account: BANK, amountVnd: held.totalVnd, payBy: deadline, instructionsLocale: 'en' });
      expect(await row(held)).to.include({ status: 'HELD', pay_later_method: 'BANK_TRANSFER' });
      expect(new Date((await row(held)).hold_expires_at).toISOString()).to.equal(deadline);
      expect(await jobsOf(EXPIRE_HOLDS_QUEUE, held)).to.include(deadline);
      expect(await jobsOf(TRANSFER_REMINDER_QUEUE, held)).to.deep.equal([new Date(created.getTime() + 18 * HOUR).toISOString()]);

      const [details] = await mails(held, 'bank-transfer-details');
      expect(details).to.include({ locale: 'en', to_address: 'transfer.payer@example.com' });
      for (const part of [BANK.bankName, BANK.accountName, BANK.accountNumber, reference, vnd(held.totalVnd), 'we hold your seats until']) expect(details.text_body).to.contain(part);
      expect(details.text_body).to.contain('View or manage your booking: ').and.not.contain(held.token);

      // Asking again quotes the same reference and deadline, and e-mails nobody again.
      const again = await checkout(spec.server, held, { method: 'BANK_TRANSFER' });
      expect(again.body).to.include({ holdExpiresAt: deadline });
      expect(again.body.bankTransfer.transferReference).to.equal(reference);
      expect(await mails(held, 'bank-transfer-details')).to.have.length(1);

      // The guest's page says what to do, with the account and the reference.
      const view = await guestView(held);
      expect(view.body).to.include({ status: 'HELD', holdExpiresAt: deadline });
      expect(view.body.payLater).to.deep.include({ state: 'AWAITING_TRANSFER', method: 'BANK_TRANSFER', amountDueVnd: held.totalVnd, deadline, bankTransfer: { account: BANK, transferReference: reference } });

      // The seats outlive the first 15 minutes; the reminder is sent once while the transfer is owed.
      await expireHolds(spec.server.app.context, new Date(Date.now() + HOUR));
      expect((await row(held)).status).to.equal('HELD');
      expect(await sendTransferReminder(spec.server.app.context, held.id)).to.equal('sent');
      expect(await sendTransferReminder(spec.server.app.context, held.id)).to.equal('already_sent');
      const [reminder] = await mails(held, 'bank-transfer-reminder');
      expect(reminder.subject).to.match(/^Reminder: your seats are held until /);
      expect(reminder.text_body).to.contain(reference);

      // Staff record the transfer: it settles the quoted payment and confirms the booking.
      const recorded = await spec.server.request<any>('POST', '/api/payments', { headers: asSuperuser, body: { reservationId: held.id, method: 'BANK_TRANSFER', note: 'seen on the statement' } });
      expect(recorded.status, JSON.stringify(recorded.body)).to.equal(201);
      expect(recorded.body).to.include({ id: res.body.paymentId, status: 'SUCCEEDED', txnRef: reference });
      expect(await row(held)).to.include({ status: 'CONFIRMED', confirmed_by: 'PAYMENT' });
      expect(await mails(held, 'reservation-confirmation')).to.have.length(1);
      expect((await guestView(held)).body.payLater).to.equal(null);
    });

    it('never keeps the seats past the booking cut-off, and a reminder whose moment has passed is not scheduled', async () => {
      const { bookableEvent } = await import('../booking/factories.ts');
      const { event, offer } = await bookableEvent({ days: 0.5 });
      const held = await hold(spec.server, { eventSlug: event.slug, offerCode: offer.code });
      const res = await checkout(spec.server, held, { method: 'BANK_TRANSFER' });
      const cutoff = new Date(new Date(event.startsAt).getTime() - 120 * 60_000).toISOString();
      expect(res.body.holdExpiresAt).to.equal(cutoff);
      // 12 h ahead, cut-off 2 h before: the deadline is ~10 h away, its 6 h reminder ~4 h away (scheduled).
      expect(await jobsOf(TRANSFER_REMINDER_QUEUE, held)).to.deep.equal([new Date(new Date(cutoff).getTime() - 6 * HOUR).toISOString()]);

      expect((await setup({ bankTransferReminderHours: 12 })).status).to.equal(200);
      const late = await hold(spec.server, { eventSlug: event.slug, offerCode: offer.code, who: 2 });
      await checkout(spec.server, late, { method: 'BANK_TRANSFER' });
      expect(await jobsOf(TRANSFER_REMINDER_QUEUE, late)).to.deep.equal([]);
    });

    it('switching methods never keeps the seats longer than the deadline counted from the booking', async () => {
      expect((await setup({ payAtVenueMaxGuests: 1, payAtVenueOverLimit: 'STAFF_APPROVAL', payAtVenueApprovalHours: 12, bankTransferHoldHours: 24 })).status).to.equal(200);
      const held = await hold(spec.server, { guests: 2 });
      const created = new Date((await row(held)).created_at).getTime();
      const transfer = await checkout(spec.server, held, { method: 'BANK_TRANSFER' });
      expect(transfer.body.holdExpiresAt).to.equal(new Date(created + 24 * HOUR).toISOString());
      // Approval's 12 h from the booking is before the transfer's deadline: the hold is not shortened.
      const venue = await checkout(spec.server, held, { method: 'PAY_AT_VENUE' });
      expect(venue.body.holdExpiresAt).to.equal(new Date(created + 24 * HOUR).toISOString());
      const back = await checkout(spec.server, held, { method: 'BANK_TRANSFER' });
      expect(back.body.holdExpiresAt).to.equal(new Date(created + 24 * HOUR).toISOString());
    });

    it('lapses unpaid: EXPIRED at the deadline, the hold-expired e-mail says the transfer did not arrive, and the reminder no longer goes', async () => {
      const held = await hold(spec.server, { guests: 2, extra: { contact: { name: 'No Transfer', email: 'no.transfer@example.com', locale: 'en' } } });
      const res = await checkout(spec.server, held, { method: 'BANK_TRANSFER' });
      const after = new Date(new Date(res.body.holdExpiresAt).getTime() + 1000);
      await expireHolds(spec.server.app.context, after);
      expect((await row(held)).status).to.equal('EXPIRED');
      expect(await sendTransferReminder(spec.server.app.context, held.id, after)).to.equal('not_awaiting_transfer');
      expect(await sendHoldExpired(spec.server.app.context, [held.id], after)).to.equal(1);
      const [mail] = await mails(held, 'hold-expired');
      expect(mail.text_body).to.contain('your bank transfer had not reached us by the deadline');
      expect((await guestView(held)).body).to.include({ status: 'EXPIRED', payLater: null });
    });
  });

  it('the commercial setup validates the pay-later rules (400 on the failing field)', async () => {
    for (const [body, path] of [
      [{ payAtVenueMaxGuests: 0 }, 'body/payAtVenueMaxGuests'],
      [{ payAtVenueOverLimit: 'MAYBE' }, 'body/payAtVenueOverLimit'],
      [{ bankTransferHoldHours: 0 }, 'body/bankTransferHoldHours'],
      [{ bankTransferReminderHours: -1 }, 'body/bankTransferReminderHours'],
    ] as const) {
      const res = await setup(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.errors[0].path).to.equal(path);
    }
    const read = await spec.server.request<any>('GET', '/api/commercial-setup', { headers: asSuperuser });
    expect(read.body).to.include({ payAtVenueMaxGuests: null, payAtVenueMaxDaysAhead: null, payAtVenueOverLimit: 'REFUSE', payAtVenueApprovalHours: 48, bankTransferHoldHours: 24, bankTransferReminderHours: 6 });
  });
});

