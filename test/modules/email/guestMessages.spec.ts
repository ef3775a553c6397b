import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { simpleParser } from 'mailparser';
import { createMailer } from '../../../server/platform/integrations/mail.ts';
import { createLogger } from '../../../server/platform/logger.ts';
import { subscriber } from '../../../server/domain/events.ts';
import { inTransition } from '../../../server/domain/unitOfWork.ts';
import { checkInQrPng, confirmReservation } from '../../../server/modules/booking/index.ts';
import { expireHolds } from '../../../server/modules/booking/commands/expireHolds.ts';
import { HOLD_EXPIRED_QUEUE, manageBookingUrl, REMINDER_QUEUE, sendReminder } from '../../../server/modules/email/commands/guestMessages.ts';
import { guestMessageJobs } from '../../../server/modules/email/jobs.ts';
import { deliverEmail } from '../../../server/modules/email/commands/deliverEmail.ts';
import { CHECK_IN_QR_CONTENT_ID, renderTemplate, type TemplateDataMap, type TemplateName } from '../../../server/modules/email/templates.ts';
import { settleRefund } from '../../../server/modules/payments/commands/settleRefund.ts';
import { deliveredNow, memoryLogger, PNG_SIGNATURE } from '../../helpers/mail.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { bookableEvent } from '../booking/factories.ts';
import { catalogCallers, type CatalogCallers, requestsAs } from '../shows/catalog.ts';

/**
 * Issue 21 §2: a message at every moment a guest cares about. Each is checked as a ledger row (template,
 * recipient, locale) after the action that causes it — through the HTTP API where there is one, else the
 * command or job — and every message is addressed to the reservation's contact snapshot, not the CRM record.
 */
const SITE = 'https://site.test';
const FROM = 'Venue Test <no-reply@venue.test>';

let ip = 0;
const fromNewAddress = () => ({ 'x-forwarded-for': `198.19.${(++ip >> 8) & 255}.${ip & 255}` });

describe('email: guest messages (confirmation, cancellations, refunds, hold expiry, reminder)', () => {
  let server: TestServer;
  let callers: CatalogCallers;
  let dataDir: string;
  before(async () => {
    server = await startTestServer({ config: { trustProxy: true, publicSiteUrl: SITE, emailFrom: FROM, reminderHoursBefore: 24, venueAddress: '12 Dong Khoi, District 1' } });
    callers = await catalogCallers();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'venue-guest-mail-'));
  });
  after(async () => {
    await server.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });
  const knex = () => server.db.knex;
  const admin = () => requestsAs(server, callers.admin);

  let who = 0;
  /** A guest's hold through the public API; the CRM customer then gets other details (the snapshot must win). */
  async function guestHold(options: { locale?: string; guests?: number; days?: number; price?: number } = {}) {
    const { event, offer, startsAt, show } = await bookableEvent({ days: options.days, price: options.price ?? 1_000_000 });
    const n = ++who;
    const email = `msg.guest${n}@example.com`;
    const res = await server.request<any>('POST', '/api/public/reservations', {
      headers: fromNewAddress(),
      body: { eventSlug: event.slug, offerCode: offer.code, guestCount: options.guests ?? 2, contact: { honorific: 'Ms', name: `Lan ${n}`, email, phone: '+84 90 000 0000', locale: options.locale ?? 'en' } },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const row = await knex()('reservations').where({ reference: res.body.reference }).first('id', 'customer_id');
    // Staff later edit the CRM record: nothing a guest is sent may come from it.
    await knex()('customers').where({ id: row.customer_id }).update({ name: 'CRM Name', email: `crm${n}@example.com`, email_normalized: `crm${n}@example.com`, locale: 'vi' });
    return { id: row.id as string, reference: res.body.reference as string, token: res.body.accessToken as string, email, event, offer, show, startsAt };
  }

  const mails = (reservationId: string, template?: string) =>
    knex()('email_messages')
      .where({ reservation_id: reservationId, ...(template ? { template } : {}) })
      .orderBy('created_at')
      .select('id', 'template', 'to_address', 'locale', 'subject', 'text_body', 'html_body');

  async function cashPayment(reservationId: string, amountVnd: number, gateway = 'CASH') {
    const [row] = await knex()('payments')
      .insert({ reservation_id: reservationId, gateway, status: 'SUCCEEDED', amount_vnd: amountVnd, txn_ref: `T${Math.random().toString(36).slice(2, 12)}`, succeeded_at: new Date() })
      .returning('id');
    return row.id as string;
  }

  const refundsOf = (reservationId: string) =>
    knex()('refunds as f').join('payments as p', 'p.id', 'f.payment_id').where('p.reservation_id', reservationId).select('f.id', 'f.status', 'f.amount_vnd', 'p.gateway');

  describe('confirmation', () => {
    it('is complete: venue time, offer, party, the breakdown as charged, paid and due, the manage link; to the snapshot; the reminder is scheduled', async () => {
      const held = await guestHold({ locale: 'vi', guests: 2, price: 1_500_000 });
      // The breakdown as charged, each reduction by source (as promo, referral and voucher would have written it).
      await knex()('reservations').where({ id: held.id }).update({
        subtotal_vnd: 3_000_000,
        promo_discount_vnd: 300_000,
        promo_code: 'SAVE10',
        referral_discount_vnd: 150_000,
        referral_code: 'HOTEL5',
        discount_vnd: 450_000,
        service_charge_percent: 5,
        service_charge_vnd: 127_500,
        vat_percent: 8,
        vat_vnd: 214_200,
        voucher_credit_vnd: 500_000,
        voucher_code: 'GIFT-1',
        total_vnd: 2_391_700,
      });
      await knex()('show_events').where({ id: held.event.id }).update({ doors_at: new Date(held.startsAt.getTime() - 30 * 60_000) });
      await cashPayment(held.id, 1_000_000);
      const res = await admin().post(`/api/reservations/${held.id}/confirm`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);

      const [mail] = await mails(held.id, 'reservation-confirmation');
      expect(mail).to.include({ to_address: held.email, locale: 'vi' });
      const text = mail.text_body as string;
      expect(text).to.contain('Cảm ơn quý khách Ms Lan').and.not.contain('CRM Name');
      const venue = (when: Date) => new Intl.DateTimeFormat('vi-VN', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Asia/Ho_Chi_Minh' }).format(when);
      expect(text).to.contain(`Ngày và giờ:  ${venue(held.startsAt)}, `);
      expect(text).to.contain(`Giờ mở cửa:   ${venue(new Date(held.startsAt.getTime() - 30 * 60_000))}`);
      expect(text).to.match(/Gói dịch vụ: {2}\S/);
      expect(text).to.contain('Số khách:     2');
      for (const line of [
        /Tạm tính \(2 khách\): 3\.000\.000\s₫/,
        /Mã khuyến mãi SAVE10: -300\.000\s₫/,
        /Ưu đãi giới thiệu HOTEL5: -150\.000\s₫/,
        /Phí dịch vụ \(5%\): 127\.500\s₫/,
        /Thuế VAT \(8%\): 214\.200\s₫/,
        /Phiếu quà tặng GIFT-1: -500\.000\s₫/,
        /Tổng cộng: 2\.391\.700\s₫/,
        /Đã thanh toán: 1\.000\.000\s₫/,
        /Còn phải trả: 1\.391\.700\s₫/,
      ]) {
        expect(text).to.match(line);
      }
      const manage = `${SITE}/vi/booking/${held.reference}#token=${encodeURIComponent(held.token)}`;
      expect(manageBookingUrl(SITE, 'vi', held.reference, held.token)).to.equal(manage);
      // The ledger (read by staff) names the page but not the guest's token (issue 32 §3); the guest's copy carries it.
      expect(text).to.contain(`${SITE}/vi/booking/${held.reference}#token=[guest token removed]`).and.not.contain(held.token);
      expect(mail.html_body).to.contain(`href="${SITE}/vi/booking/${held.reference}#token=[guest token removed]"`).and.not.contain(held.token);
      const delivered = await deliveredNow(knex(), mail.id);
      expect(delivered.text).to.contain(manage);
      expect(delivered.html).to.contain(`href="${manage}"`);

      // The reminder: one job, 24 h before the show.
      const { rows } = (await knex().raw(`select data, start_after from pgboss.job where name = ? and data->>'reservationId' = ?`, [REMINDER_QUEUE, held.id])) as { rows: Array<{ start_after: Date }> };
      expect(rows).to.have.length(1);
      expect(new Date(rows[0].start_after).getTime()).to.equal(held.startsAt.getTime() - 24 * 3_600_000);
    });

    it('as an .eml: the QR inline (cid) and as a file, the .ics with DTSTART in UTC, and the text part says where they are', async () => {
      const held = await guestHold({ locale: 'en' });
      await admin().post(`/api/reservations/${held.id}/confirm`);
      const [mail] = await mails(held.id, 'reservation-confirmation');
      expect(mail).to.include({ to_address: held.email, locale: 'en' });
      const { logger } = memoryLogger();
      const mailer = createMailer({ dataDir, timeoutMs: 1000 }, logger);
      expect(await deliverEmail({ knex: knex(), mailer, logger }, mail.id)).to.equal('sent');
      const files = (await fs.readdir(path.join(dataDir, 'outbox'))).filter((f) => f.endsWith('.eml'));
      const raw = await fs.readFile(path.join(dataDir, 'outbox', files[files.length - 1]));
      const parsed = await simpleParser(raw, { keepCidLinks: true });
      expect((parsed.to as { text: string }).text).to.equal(held.email);
      expect(parsed.html as string).to.contain(`cid:${CHECK_IN_QR_CONTENT_ID}`);

      const [inline, file, calendar] = parsed.attachments;
      expect(inline).to.include({ cid: CHECK_IN_QR_CONTENT_ID, contentDisposition: 'inline', contentType: 'image/png' });
      expect(inline.content.subarray(0, 8).equals(PNG_SIGNATURE)).to.equal(true);
      expect(file).to.include({ filename: `check-in-${held.reference}.png`, contentDisposition: 'attachment', contentType: 'image/png' });
      expect(file.content.equals(inline.content)).to.equal(true);
      expect(calendar).to.include({ filename: `${held.reference}.ics`, contentDisposition: 'attachment' });
      expect(calendar.contentType).to.match(/^text\/calendar/);

      const ics = calendar.content.toString('utf8').replace(/\r\n[ \t]/g, '');
      const utc = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
      const durationMs = Number((await knex()('shows').where({ id: held.show.id }).first('duration_minutes')).duration_minutes) * 60_000;
      expect(ics).to.match(/^BEGIN:VCALENDAR\r\n/);
      expect(ics).to.contain(`\r\nDTSTART:${utc(held.startsAt)}\r\n`);
      expect(ics).to.contain(`\r\nDTEND:${utc(new Date(held.startsAt.getTime() + durationMs))}\r\n`);
      expect(ics).to.contain(`\r\nUID:${held.reference}@reservations\r\n`);
      expect(ics).to.contain('LOCATION:Venue Test\\, 12 Dong Khoi\\, District 1');
      // Calendars are shared: the entry links the manage page without the guest's token (issue 32 §3).
      expect(ics).to.contain(`\r\nURL:${SITE}/en/booking/${held.reference}\r\n`);
      expect(ics).not.to.contain('token').and.not.contain(held.token);
      expect(parsed.text).to.contain(`${SITE}/en/booking/${held.reference}#token=${held.token}`);

      expect(parsed.text).to.contain(`Your check-in QR code is attached to this e-mail as check-in-${held.reference}.png`);
      expect(parsed.text).to.contain(`open the attached file ${held.reference}.ics`);
    });

    // Issue 33: booking no longer calls the e-mail module; the message is the e-mail module's subscriber of
    // `reservation.confirmed`, first of them and in the confirming transaction (the phase the direct call had).
    const confirmedWatcher = (name: string, order: number, handle: (reservationId: string, trx: Knex.Transaction) => Promise<void>) =>
      server.app.context.events.attachForTest(subscriber({ name, event: 'reservation.confirmed', phase: 'in-transaction', order, handle: ({ reservationId }, ctx) => handle(reservationId, ctx.trx) }));

    it('is written by the e-mail module’s subscriber of reservation.confirmed, first, in the confirming transaction; its QR is the token the confirmation made', async () => {
      const held = await guestHold({ locale: 'en' });
      const seen: string[] = [];
      const count = (when: string) => async (reservationId: string, trx: Knex.Transaction) => {
        const rows = await trx('email_messages').where({ reservation_id: reservationId, template: 'reservation-confirmation' }).select('id');
        seen.push(`${when}: ${rows.length}`);
      };
      const detach = [confirmedWatcher('test.before-email', 1, count('before')), confirmedWatcher('test.after-email', 6, count('after'))];
      let checkInToken: string | undefined;
      try {
        ({ checkInToken } = await inTransition(server.app.context, 'SYSTEM', (ctx) => confirmReservation(ctx, held.id, { by: 'STAFF' })));
      } finally {
        for (const off of detach) off();
      }
      expect(seen).to.deep.equal(['before: 0', 'after: 1']);
      const [mail] = await mails(held.id, 'reservation-confirmation');
      const qr = await knex()('email_attachments').where({ message_id: mail.id, position: 0 }).first('content');
      expect(Buffer.from(qr.content).equals(await checkInQrPng(checkInToken!))).to.equal(true);
    });

    it('rolls back with its confirmation: a later subscriber that throws leaves no message and no reminder job', async () => {
      const held = await guestHold({ locale: 'en' });
      const off = confirmedWatcher('test.refuse', 6, async () => {
        throw new Error('refused after the e-mail');
      });
      try {
        await inTransition(server.app.context, 'SYSTEM', (ctx) => confirmReservation(ctx, held.id, { by: 'STAFF' })).then(
          () => expect.fail('the confirmation should have rolled back'),
          (err: Error) => expect(err.message).to.equal('refused after the e-mail'),
        );
      } finally {
        off();
      }
      expect(await mails(held.id)).to.deep.equal([]);
      expect((await knex()('reservations').where({ id: held.id }).first('status')).status).to.equal('HELD');
      const { rows } = (await knex().raw(`select id from pgboss.job where name = ? and data->>'reservationId' = ?`, [REMINDER_QUEUE, held.id])) as { rows: unknown[] };
      expect(rows).to.deep.equal([]);
    });

    it('leaves the manage link out for a reservation whose token was not kept sealed (an older row)', async () => {
      const held = await guestHold({ locale: 'en' });
      await knex()('reservations').where({ id: held.id }).update({ access_token_sealed: null });
      await admin().post(`/api/reservations/${held.id}/confirm`);
      const [mail] = await mails(held.id, 'reservation-confirmation');
      expect(mail.text_body).not.to.contain('/booking/').and.not.to.contain('manage your booking');
    });
  });

  describe('cancellations and refunds', () => {
    it('cancelled by the venue: what was cancelled, the refund and its state, after the refund row exists; the staff reason stays internal', async () => {
      const held = await guestHold({ locale: 'en', guests: 3 });
      await admin().post(`/api/reservations/${held.id}/confirm`);
      await cashPayment(held.id, 2_400_000);
      const res = await admin().post(`/api/reservations/${held.id}/cancel`, { reason: 'Overbooked by staff error' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const refunds = await refundsOf(held.id);
      expect(refunds).to.have.length(1);
      expect(refunds[0]).to.include({ status: 'PENDING', amount_vnd: 2_400_000 });

      const [mail] = await mails(held.id, 'reservation-cancelled-by-venue');
      expect(mail).to.include({ to_address: held.email, locale: 'en' });
      expect(mail.subject).to.equal(`Your reservation ${held.reference} has been cancelled by the venue`);
      expect(mail.text_body).to.contain('Dear Ms Lan').and.contain('Guests:        3').and.contain(held.reference);
      expect(mail.text_body).to.contain('A refund of 2,400,000 VND is due to you').and.contain('our team will contact you');
      expect(mail.text_body).to.contain(`${SITE}/en/book/${held.event.slug}`);
      expect(mail.text_body).not.to.contain('Overbooked');

      // Staff hand the money back: the refund-completed message.
      const done = await admin().post(`/api/refunds/${refunds[0].id}/complete`);
      expect(done.status, JSON.stringify(done.body)).to.equal(200);
      const [completed] = await mails(held.id, 'refund-completed');
      expect(completed).to.include({ to_address: held.email, locale: 'en' });
      expect(completed.text_body).to.contain('The refund of 2,400,000 VND').and.contain('is complete');
    });

    it('a VNPay refund is "sent to VNPay" in the cancellation; its failure says what happens next (vi)', async () => {
      const held = await guestHold({ locale: 'vi' });
      await admin().post(`/api/reservations/${held.id}/confirm`);
      await cashPayment(held.id, 2_000_000, 'VNPAY');
      await admin().post(`/api/reservations/${held.id}/cancel`, { reason: 'x' });
      const [mail] = await mails(held.id, 'reservation-cancelled-by-venue');
      expect(mail).to.include({ to_address: held.email, locale: 'vi' });
      expect(mail.text_body).to.match(/Yêu cầu hoàn 2\.000\.000\s₫ đã được gửi đến VNPay/);

      const [refund] = await refundsOf(held.id);
      await inTransition(server.app.context, 'SYSTEM', (ctx) => settleRefund(ctx, refund.id, { status: 'FAILED', failureReason: 'declined' }));
      const [failed] = await mails(held.id, 'refund-failed');
      expect(failed).to.include({ to_address: held.email, locale: 'vi' });
      expect(failed.text_body).to.match(/Khoản hoàn 2\.000\.000\s₫/).and.contain('qua VNPay').and.contain('sẽ liên hệ');
      // Settling again changes nothing and writes nothing.
      await inTransition(server.app.context, 'SYSTEM', (ctx) => settleRefund(ctx, refund.id, { status: 'SUCCEEDED' }));
      expect(await mails(held.id, 'refund-failed')).to.have.length(1);
      expect(await mails(held.id, 'refund-completed')).to.have.length(0);
    });

    it('cancelled by the guest with the token: what was cancelled and the refund (en, vi); nothing paid says so', async () => {
      const paid = await guestHold({ locale: 'en' });
      await admin().post(`/api/reservations/${paid.id}/confirm`);
      await cashPayment(paid.id, 1_000_000, 'VNPAY');
      const res = await server.request<any>('POST', `/api/public/reservations/${paid.reference}/cancel`, { headers: { 'x-reservation-token': paid.token, ...fromNewAddress() }, body: {} });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [mail] = await mails(paid.id, 'reservation-cancelled-by-guest');
      expect(mail).to.include({ to_address: paid.email, locale: 'en' });
      expect(mail.subject).to.match(/^Cancellation confirmed: /);
      expect(mail.text_body).to.contain('As you asked, your reservation below has been cancelled.').and.contain('A refund of 1,000,000 VND has been sent to VNPay');
      expect(await mails(paid.id, 'reservation-cancelled-by-venue')).to.have.length(0);

      const unpaid = await guestHold({ locale: 'vi' });
      await server.request<any>('POST', `/api/public/reservations/${unpaid.reference}/cancel`, { headers: { 'x-reservation-token': unpaid.token, ...fromNewAddress() }, body: {} });
      const [vi] = await mails(unpaid.id, 'reservation-cancelled-by-guest');
      expect(vi).to.include({ to_address: unpaid.email, locale: 'vi' });
      expect(vi.text_body).to.contain('Theo yêu cầu của quý khách').and.contain('chưa được thanh toán');
      // Cancelling again is answered as it is, and e-mails nobody again.
      await server.request<any>('POST', `/api/public/reservations/${unpaid.reference}/cancel`, { headers: { 'x-reservation-token': unpaid.token, ...fromNewAddress() }, body: {} });
      expect(await mails(unpaid.id, 'reservation-cancelled-by-guest')).to.have.length(1);
    });

    it('a cancelled show event still e-mails each guest, at the reservation’s contact (not the CRM record)', async () => {
      const held = await guestHold({ locale: 'vi' });
      const res = await admin().post(`/api/show-events/${held.event.id}/cancel`, { reason: 'Storm' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [mail] = await mails(held.id, 'reservation-cancelled');
      expect(mail).to.include({ to_address: held.email, locale: 'vi' });
      expect(mail.text_body).to.contain('Ms Lan').and.not.contain('CRM Name');
      expect(await mails(held.id, 'reservation-cancelled-by-venue')).to.have.length(0);
    });
  });

  describe('hold expiry', () => {
    const [, holdExpiredJob] = guestMessageJobs;
    const run = (reservationIds: string[]) =>
      holdExpiredJob.handler({ reservationIds }, { id: 't', queue: HOLD_EXPIRED_QUEUE, attempt: 1, retryLimit: 5, createdOn: new Date(), log: createLogger('silent'), app: server.app.context });

    it('queues one job in the expiry’s transaction; the job tells each guest the seats were released, with a link to book again, once @db', async () => {
      const en = await guestHold({ locale: 'en' });
      const vi = await guestHold({ locale: 'vi' });
      await knex()('reservations').whereIn('id', [en.id, vi.id]).update({ hold_expires_at: new Date(Date.now() - 1000) });
      await knex()('pgboss.job').where({ name: HOLD_EXPIRED_QUEUE }).delete();
      expect(await expireHolds(server.app.context, new Date())).to.be.at.least(2);
      const jobs = await knex()('pgboss.job').where({ name: HOLD_EXPIRED_QUEUE }).select('data');
      expect(jobs).to.have.length(1);
      expect(jobs[0].data.reservationIds).to.include.members([en.id, vi.id]);

      await run([en.id, vi.id]);
      await run([en.id, vi.id]);
      const [enMail] = await mails(en.id, 'hold-expired');
      expect(await mails(en.id, 'hold-expired')).to.have.length(1);
      expect(enMail).to.include({ to_address: en.email, locale: 'en' });
      expect(enMail.text_body).to.contain('The hold has expired and the seats have been released.').and.contain(`Book this performance again: ${SITE}/en/book/${en.event.slug}`);
      const [viMail] = await mails(vi.id, 'hold-expired');
      expect(viMail).to.include({ to_address: vi.email, locale: 'vi' });
      expect(viMail.text_body).to.contain('các chỗ đã được mở lại').and.contain(`${SITE}/vi/book/${vi.event.slug}`);
    });

    it('writes nothing for a reservation a late payment confirmed in the meantime', async () => {
      const held = await guestHold({ locale: 'en' });
      await knex()('reservations').where({ id: held.id }).update({ status: 'EXPIRED', hold_expires_at: null });
      await knex()('reservations').where({ id: held.id }).update({ status: 'CONFIRMED' });
      await run([held.id]);
      expect(await mails(held.id, 'hold-expired')).to.have.length(0);
    });
  });

  describe('reminder', () => {
    const [reminderJob] = guestMessageJobs;
    const runJob = (reservationId: string) =>
      reminderJob.handler({ reservationId }, { id: 't', queue: REMINDER_QUEUE, attempt: 1, retryLimit: 5, createdOn: new Date(), log: createLogger('silent'), app: server.app.context });

    it('is sent once when due (a job run twice sends once), to the snapshot, in the guest’s locale', async () => {
      const held = await guestHold({ locale: 'vi', days: 10 });
      await admin().post(`/api/reservations/${held.id}/confirm`);
      const due = new Date(held.startsAt.getTime() - 24 * 3_600_000);
      // Too early (the show was moved later since the job was queued): a new job at the right time, nothing sent.
      expect(await sendReminder(server.app.context, held.id, new Date(due.getTime() - 3_600_000))).to.equal('rescheduled');
      expect(await sendReminder(server.app.context, held.id, due)).to.equal('sent');
      expect(await sendReminder(server.app.context, held.id, due)).to.equal('already_sent');
      const [mail] = await mails(held.id, 'reservation-reminder');
      expect(await mails(held.id, 'reservation-reminder')).to.have.length(1);
      expect(mail).to.include({ to_address: held.email, locale: 'vi' });
      expect(mail.subject).to.match(/^Hẹn gặp quý khách: /);
      expect(mail.text_body).to.contain('Kính gửi quý khách Ms Lan').and.contain(`${SITE}/vi/booking/${held.reference}#token=`);
      expect(mail.text_body).not.to.contain(held.token);
      expect((await deliveredNow(knex(), mail.id)).text).to.contain(`${SITE}/vi/booking/${held.reference}#token=${held.token}`);
      expect(mail.text_body).to.match(/Thanh toán tại quầy: 2\.\d{3}\.\d{3}\s₫/);
    });

    it('is not sent after the reservation was cancelled, for a cancelled event, or once the event has started', async () => {
      const cancelled = await guestHold({ locale: 'en' });
      await admin().post(`/api/reservations/${cancelled.id}/confirm`);
      await admin().post(`/api/reservations/${cancelled.id}/cancel`, { reason: 'guest called' });
      await runJob(cancelled.id);
      expect(await sendReminder(server.app.context, cancelled.id, new Date(cancelled.startsAt.getTime() - 3_600_000))).to.equal('not_confirmed');

      const past = await guestHold({ locale: 'en' });
      await admin().post(`/api/reservations/${past.id}/confirm`);
      expect(await sendReminder(server.app.context, past.id, new Date(past.startsAt.getTime() + 60_000))).to.equal('event_started');

      const eventGone = await guestHold({ locale: 'en' });
      await admin().post(`/api/reservations/${eventGone.id}/confirm`);
      await knex()('show_events').where({ id: eventGone.event.id }).update({ status: 'CANCELLED' });
      expect(await sendReminder(server.app.context, eventGone.id, new Date(eventGone.startsAt.getTime() - 3_600_000))).to.equal('event_not_scheduled');

      for (const id of [cancelled.id, past.id, eventGone.id]) expect(await mails(id, 'reservation-reminder')).to.have.length(0);
    });

    it('is not scheduled when its moment has already passed at confirmation', async () => {
      const soon = await guestHold({ locale: 'en', days: 0.5 });
      await admin().post(`/api/reservations/${soon.id}/confirm`);
      const { rows } = (await knex().raw(`select 1 from pgboss.job where name = ? and data->>'reservationId' = ?`, [REMINDER_QUEUE, soon.id])) as { rows: unknown[] };
      expect(rows).to.have.length(0);
    });
  });
});

describe('email: guest message templates render in en and vi', () => {
  const base = { guestName: 'Ms Lan', showName: 'Saigon Nights', startsAt: '2026-12-05T12:30:00Z', partySize: 2, reservationReference: 'VN-ABC234' };
  const cases: { [K in TemplateName]?: { data: TemplateDataMap[K]; en: RegExp[]; vi: RegExp[] } } = {
    'reservation-cancelled-by-venue': {
      data: { ...base, offerName: 'Dinner', paidVnd: 1_000_000, refunds: [{ amountVnd: 1_000_000, state: 'COMPLETED' }], bookAgainUrl: `${SITE}/en/shows` },
      en: [/has been cancelled by the venue/, /1,000,000 VND has been refunded to you/, /Saturday, 5 December 2026 at 19:30/],
      vi: [/đã bị hủy/, /1\.000\.000\s₫ đã được hoàn lại/, /19:30, Thứ Bảy, 5 tháng 12, 2026/],
    },
    'reservation-cancelled-by-guest': {
      data: { ...base, paidVnd: 0, refunds: [], bookAgainUrl: `${SITE}/en/shows` },
      en: [/Cancellation confirmed/, /nothing to refund/],
      vi: [/Đã hủy theo yêu cầu/, /không có khoản nào cần hoàn lại/],
    },
    'refund-completed': {
      data: { ...base, amountVnd: 500_000, gateway: 'VNPAY' },
      en: [/refund of 500,000 VND/, /VNPay has returned it/],
      vi: [/Khoản hoàn 500\.000\s₫/, /VNPay đã hoàn tiền/],
    },
    'refund-failed': {
      data: { ...base, amountVnd: 500_000, gateway: 'CASH' },
      en: [/could not be completed\./, /What happens next/],
      vi: [/chưa thể thực hiện\./, /Bước tiếp theo/],
    },
    'hold-expired': {
      data: { ...base, bookAgainUrl: `${SITE}/en/shows`, sameEvent: false },
      en: [/hold has expired/, /See our other performances: https:\/\/site\.test\/en\/shows/],
      vi: [/Thời gian giữ chỗ đã hết/, /Xem các buổi diễn khác/],
    },
    // Issue 34 §1: paying later.
    'bank-transfer-details': {
      data: { ...base, amountVnd: 3_402_000, payBy: '2026-11-24T14:00:00Z', bankName: 'Vietcombank', accountName: 'CONG TY VENUE', accountNumber: '0071000123456', transferReference: 'BTABC2341F2E', manageUrl: null },
      en: [/Your seats are held until Tuesday, 24 November 2026 at 21:00: please transfer 3,402,000 VND/, /Transfer description: BTABC2341F2E/, /Account number: {7}0071000123456/],
      vi: [/Chỗ của quý khách được giữ đến 21:00, Thứ Ba, 24 tháng 11, 2026: vui lòng chuyển khoản 3\.402\.000\s₫/, /Nội dung chuyển khoản: BTABC2341F2E/, /Ngân hàng: {13}Vietcombank/],
    },
    'bank-transfer-reminder': {
      data: { ...base, amountVnd: 3_402_000, payBy: '2026-11-24T14:00:00Z', bankName: 'Vietcombank', accountName: 'CONG TY VENUE', accountNumber: '0071000123456', transferReference: 'BTABC2341F2E', manageUrl: null },
      en: [/Reminder: your seats are held until/, /We have not received your bank transfer/, /BTABC2341F2E/],
      vi: [/Nhắc nhở: chỗ của quý khách được giữ đến/, /Chúng tôi chưa nhận được khoản chuyển khoản/, /BTABC2341F2E/],
    },
    'pay-at-venue-pending': {
      data: { ...base, amountVnd: 3_402_000, payBy: '2026-11-24T14:00:00Z', manageUrl: null },
      en: [/Awaiting the venue's approval: Saigon Nights/, /we hold your seats until Tuesday, 24 November 2026 at 21:00/, /you pay 3,402,000 VND at the box office/],
      vi: [/Đang chờ nhà hát chấp thuận: Saigon Nights/, /chúng tôi giữ chỗ đến 21:00, Thứ Ba, 24 tháng 11, 2026/, /thanh toán 3\.402\.000\s₫ tại quầy vé/],
    },
    'reservation-reminder': {
      data: { ...base, doorsAt: '2026-12-05T12:00:00Z', dueVnd: 0, manageUrl: null },
      en: [/A reminder of your reservation/, /Doors open: {4}19:00/],
      vi: [/Xin nhắc lại/, /Giờ mở cửa: {3}19:00/],
    },
  };
  it('hold-expired says why when the guest had chosen to pay later (transfer, approval)', async () => {
    const data = { ...base, bookAgainUrl: `${SITE}/en/shows`, sameEvent: false };
    const text = async (locale: 'en' | 'vi', reason: 'transfer' | 'approval' | null) => (await renderTemplate('hold-expired', locale, { ...data, reason }, { venueName: 'Venue' })).text;
    expect(await text('en', 'transfer')).to.contain('but your bank transfer had not reached us by the deadline. The hold has expired');
    expect(await text('en', 'approval')).to.contain('but the venue could not approve paying at the venue in time.');
    expect(await text('en', null)).to.contain('but the booking was not completed in time.');
    expect(await text('vi', 'transfer')).to.contain('chúng tôi chưa nhận được khoản chuyển khoản của quý khách trước hạn');
    expect(await text('vi', 'approval')).to.contain('nhà hát chưa thể chấp thuận việc thanh toán tại quầy kịp thời');
  });

  it('the confirmation of a booking paid at the venue says what is due at the door first (en, vi)', async () => {
    const data = { ...base, totalVnd: 3_402_000, checkInToken: 'x'.repeat(43), dueAtVenueVnd: 3_402_000 };
    const en = await renderTemplate('reservation-confirmation', 'en', data, { venueName: 'Venue' });
    expect(en.text).to.match(/confirmed\. We look forward to welcoming you\.\n\nTo pay at the venue: 3,402,000 VND\. Please pay in cash or by card at the box office when you arrive, quoting your reference VN-ABC234\./);
    expect(en.html).to.contain('<strong>To pay at the venue: 3,402,000 VND.</strong>');
    const vi = await renderTemplate('reservation-confirmation', 'vi', data, { venueName: 'Venue' });
    expect(vi.text).to.match(/Thanh toán tại quầy: 3\.402\.000\s₫\. Vui lòng thanh toán bằng tiền mặt hoặc thẻ tại quầy vé khi đến, kèm mã đặt chỗ VN-ABC234\./);
    const none = await renderTemplate('reservation-confirmation', 'en', { ...data, dueAtVenueVnd: 0 }, { venueName: 'Venue' });
    expect(none.text).not.to.contain('To pay at the venue');
  });

  for (const [name, spec] of Object.entries(cases)) {
    it(name, async () => {
      for (const locale of ['en', 'vi'] as const) {
        const rendered = await renderTemplate(name as TemplateName, locale, spec!.data as never, { venueName: 'Venue' });
        expect(rendered.locale).to.equal(locale);
        for (const pattern of spec![locale]) expect(rendered.subject + '\n' + rendered.text, `${name}.${locale}`).to.match(pattern);
        expect(rendered.html).to.contain(`lang="${locale}"`);
      }
    });
  }
});
