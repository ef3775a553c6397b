import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { recordEmail, type RecordEmailInput } from '../../../server/modules/email/commands/recordEmail.ts';
import { deliverEmail } from '../../../server/modules/email/commands/deliverEmail.ts';
import { up as redactLedgerMigration } from '../../../migrations/20261205000300_email_guest_tokens.ts';
import { createLogger } from '../../../server/platform/logger.ts';
import { buildMemberSession } from '../../helpers/factories.ts';
import { capturingMailer, deliveredNow } from '../../helpers/mail.ts';
import { cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';
import { bookableEvent } from '../booking/factories.ts';

/**
 * Issue 32 §3, "a guest's token is the guest's alone": the manage-booking link and a waiting-list offer carry the
 * guest's token, but the e-mail ledger staff read keeps them with a placeholder in its place; the token is put back
 * only in the copy handed to the transport (every attempt), the `.ics` links the page without it, and the message
 * bodies are admin+ (staff, kitchen_pos included, keep the list and the delivery state).
 */
const SITE = 'https://site.test';
const FROM = 'Venue Test <no-reply@venue.test>';
const PLACEHOLDER = '[guest token removed]';
const silent = createLogger('silent');
/** A token as the server makes them (32 random bytes, base64url). */
const offerToken = () => randomBytes(32).toString('base64url');

let ip = 0;
const fromNewAddress = () => ({ 'x-forwarded-for': `198.20.${(++ip >> 8) & 255}.${ip & 255}` });

describe('email: a guest’s token is the guest’s alone (ledger redaction, body access)', () => {
  let server: TestServer;
  const callers: Record<'member' | 'kitchen_pos' | 'admin', Record<string, string>> = { member: {}, kitchen_pos: {}, admin: {} };
  before(async () => {
    server = await startTestServer({ config: { trustProxy: true, publicSiteUrl: SITE, emailFrom: FROM } });
    for (const role of ['member', 'kitchen_pos', 'admin'] as const) callers[role] = cookieHeader((await buildMemberSession(role)).token);
  });
  after(() => server.close());
  const knex = () => server.db.knex;

  let who = 0;
  async function confirmedBooking() {
    const { event, offer } = await bookableEvent({ price: 1_000_000 });
    const n = ++who;
    const res = await server.request<any>('POST', '/api/public/reservations', {
      headers: fromNewAddress(),
      body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: { name: `Token Guest ${n}`, email: `token.guest${n}@example.com`, locale: 'en' } },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const { id } = await knex()('reservations').where({ reference: res.body.reference }).first('id');
    const confirmed = await server.request('POST', `/api/reservations/${id}/confirm`, { headers: callers.admin });
    expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
    const mail = await knex()('email_messages').where({ reservation_id: id, template: 'reservation-confirmation' }).first('id');
    return { id: id as string, reference: res.body.reference as string, token: res.body.accessToken as string, messageId: mail.id as string };
  }

  /** Everything the ledger stores of one message, straight from the database: the row and its attachments' bytes. */
  async function stored(messageId: string) {
    const row = await knex()('email_messages').where({ id: messageId }).first();
    const attachments = await knex()('email_attachments').where({ message_id: messageId }).orderBy('position').select('filename', 'content');
    return { row, text: JSON.stringify(row), files: attachments.map((a: { filename: string; content: Uint8Array }) => ({ filename: a.filename, content: Buffer.from(a.content) })) };
  }

  it('the confirmation: the stored row holds no token (the link reads the placeholder), the delivered mail carries it and its link works', async () => {
    const booking = await confirmedBooking();
    const page = `${SITE}/en/booking/${booking.reference}`;

    const before = await stored(booking.messageId);
    expect(before.text).not.to.contain(booking.token);
    expect(before.row.text_body).to.contain(`${page}#token=${PLACEHOLDER}`);
    expect(before.row.html_body).to.contain(`href="${page}#token=${PLACEHOLDER}"`);
    expect(before.row.guest_tokens_sealed, 'kept sealed until delivered').to.be.a('string');
    for (const file of before.files) expect(file.content.includes(booking.token), file.filename).to.equal(false);
    const ics = before.files.find((f) => f.filename.endsWith('.ics'))!.content.toString('utf8').replace(/\r\n[ \t]/g, '');
    expect(ics).to.contain(`\r\nURL:${page}\r\n`).and.not.contain('token');

    const delivered = await deliveredNow(knex(), booking.messageId);
    const link = `${page}#token=${encodeURIComponent(booking.token)}`;
    expect(delivered.text).to.contain(link).and.not.contain(PLACEHOLDER);
    expect(delivered.html).to.contain(`href="${link}"`).and.not.contain(PLACEHOLDER);
    const deliveredIcs = delivered.attachments!.find((a) => a.filename.endsWith('.ics'))!;
    expect(Buffer.from(deliveredIcs.content).includes(booking.token)).to.equal(false);

    // The guest follows the delivered link: the page reads the token from the fragment and calls the public API.
    const fromMail = decodeURIComponent(delivered.text.match(new RegExp(`${page}#token=(\\S+)`))![1]);
    const view = await server.request<any>('GET', `/api/public/reservations/${booking.reference}`, { headers: { 'x-reservation-token': fromMail, ...fromNewAddress() } });
    expect(view.status, JSON.stringify(view.body)).to.equal(200);
    expect(view.body.reference).to.equal(booking.reference);

    const after = await stored(booking.messageId);
    expect(after.row.status).to.equal('SENT');
    expect(after.row.guest_tokens_sealed, 'dropped once sent').to.equal(null);
    expect(after.text).not.to.contain(booking.token);
  });

  it('staff and kitchen_pos sessions read the list and the delivery state but no body; admin reads the body, redacted', async () => {
    const booking = await confirmedBooking();
    for (const role of ['member', 'kitchen_pos'] as const) {
      const list = await server.request<any>('GET', `/api/email/messages?reservationId=${booking.id}`, { headers: callers[role] });
      expect(list.status, role).to.equal(200);
      expect(list.body.items.map((m: { id: string }) => m.id), role).to.include(booking.messageId);
      const one = await server.request<any>('GET', `/api/email/messages/${booking.messageId}`, { headers: callers[role] });
      expect(one.status, role).to.equal(200);
      expect(one.body, role).to.include({ id: booking.messageId, status: 'QUEUED', template: 'reservation-confirmation' }).and.not.have.any.keys('htmlBody', 'textBody');
      expect(JSON.stringify(one.body) + JSON.stringify(list.body), role).not.to.contain(booking.token).and.not.contain('/booking/');
      const body = await server.request<any>('GET', `/api/email/messages/${booking.messageId}/content`, { headers: callers[role] });
      expect([body.status, body.body.code], role).to.deep.equal([403, 'insufficient_role']);
    }
    const content = await server.request<any>('GET', `/api/email/messages/${booking.messageId}/content`, { headers: callers.admin });
    expect(content.status).to.equal(200);
    expect(content.body.textBody).to.contain(`${SITE}/en/booking/${booking.reference}#token=${PLACEHOLDER}`);
    expect(content.body.htmlBody).to.contain('<html');
    expect(JSON.stringify(content.body)).not.to.contain(booking.token);
    expect(content.body).not.to.have.any.keys('guestTokensSealed', 'guest_tokens_sealed');
  });

  describe('a waiting-list offer, retries and failures', () => {
    const offer = (to: string, token: string): RecordEmailInput => ({
      to,
      template: 'waitlist-offer',
      locale: 'en',
      data: { guestName: 'Lan', showName: 'Saigon Nights', startsAt: '2026-12-05T12:30:00Z', partySize: 2, offerUrl: `https://venue.example/waitlist-offer?event=gala&token=${token}`, offerExpiresAt: '2026-12-04T12:30:00Z' },
    });
    const record = (input: RecordEmailInput) =>
      knex().transaction((trx) => recordEmail(trx, input, { enqueue: (queue, data, options) => server.app.context.jobs.enqueue(queue, data, options), emailFrom: FROM }));

    it('a retry hands the transport the working link again, never the redacted copy', async () => {
      const token = offerToken();
      const message = await record(offer('offer.retry@example.com', token));
      expect(message.textBody).to.contain(`https://venue.example/waitlist-offer?event=gala&token=${PLACEHOLDER}`);
      expect(message.htmlBody).to.contain(`?event=gala&amp;token=${PLACEHOLDER}`);
      expect((await stored(message.id)).text).not.to.contain(token);

      const { mailer, sent } = capturingMailer({ failures: 1 });
      const deps = { knex: knex(), mailer, logger: silent };
      const first = await deliverEmail(deps, message.id).catch((err: unknown) => err);
      expect(first).to.be.instanceOf(Error);
      expect((await stored(message.id)).row).to.include({ status: 'QUEUED', attempts: 1 }).and.have.property('guest_tokens_sealed').that.is.a('string');
      expect(await deliverEmail(deps, message.id)).to.equal('sent');
      expect(sent).to.have.length(1);
      expect(sent[0].text).to.contain(`https://venue.example/waitlist-offer?event=gala&token=${token}`).and.not.contain(PLACEHOLDER);
      expect(sent[0].html).to.contain(`?event=gala&amp;token=${token}`);
      expect((await stored(message.id)).text).not.to.contain(token);
    });

    it('a message given up (the last attempt) drops its sealed tokens; tokens that do not open fail it unsent', async () => {
      const given = await record(offer('offer.final@example.com', offerToken()));
      const { mailer } = capturingMailer({ failures: 1 });
      expect(await deliverEmail({ knex: knex(), mailer, logger: silent }, given.id, { finalAttempt: true })).to.equal('failed');
      expect((await stored(given.id)).row).to.include({ status: 'FAILED', guest_tokens_sealed: null });

      const broken = await record(offer('offer.broken@example.com', offerToken()));
      await knex()('email_messages').where({ id: broken.id }).update({ guest_tokens_sealed: 'AAAA.BBBB.CCCC' });
      const capture = capturingMailer();
      expect(await deliverEmail({ knex: knex(), mailer: capture.mailer, logger: silent }, broken.id)).to.equal('failed');
      expect(capture.sent, 'no mail with links that do not work').to.have.length(0);
      const row = (await stored(broken.id)).row;
      expect(row).to.include({ status: 'FAILED', guest_tokens_sealed: null });
      expect(row.last_error).to.match(/^guest_tokens_unavailable/);
    });

    it('a message without a guest link is stored and sent as rendered, nothing sealed', async () => {
      const plain = await record({ to: 'plain@example.com', template: 'test-message', locale: 'en', data: { note: 'see https://x.test/?token=short' } });
      expect((await stored(plain.id)).row.guest_tokens_sealed).to.equal(null);
      expect((await deliveredNow(knex(), plain.id)).text).to.contain('https://x.test/?token=short');
    });
  });

  it('the migration redacts the rows recorded before: their snapshots and .ics hold no token, a queued one still sends its working link @db', async () => {
    const manageToken = offerToken();
    const waitToken = offerToken();
    const page = `${SITE}/en/booking/VN-LEGACY`;
    const foldedIcs = ['BEGIN:VCALENDAR', 'BEGIN:VEVENT', `URL:${page}#token=${manageToken}`, `DESCRIPTION:VN-LEGACY\\n2 × Dinner\\n${page}#token=${manageToken}`, 'END:VEVENT', 'END:VCALENDAR', '']
      .map((line) => (line.length > 75 ? line.match(/.{1,74}/g)!.join('\r\n ') : line))
      .join('\r\n');
    const [queued] = await knex()('email_messages')
      .insert({
        status: 'QUEUED',
        to_address: 'legacy@example.com',
        from_address: FROM,
        subject: 'Your reservation is confirmed',
        template: 'reservation-confirmation',
        locale: 'en',
        html_body: `<p><a href="${page}#token=${manageToken}">View or manage your booking</a></p>`,
        text_body: `View or manage your booking: ${page}#token=${manageToken}\n`,
        attachments: JSON.stringify([{ filename: 'VN-LEGACY.ics', contentType: 'text/calendar', size: Buffer.byteLength(foldedIcs), contentId: null }]),
      })
      .returning('id');
    await knex()('email_attachments').insert({ message_id: queued.id, position: 0, filename: 'VN-LEGACY.ics', content_type: 'text/calendar', size: Buffer.byteLength(foldedIcs), content: Buffer.from(foldedIcs) });
    const [sentOffer] = await knex()('email_messages')
      .insert({
        status: 'SENT',
        sent_at: new Date(),
        to_address: 'legacy.offer@example.com',
        from_address: FROM,
        subject: 'Seats are free for you',
        template: 'waitlist-offer',
        locale: 'en',
        html_body: `<a href="https://venue.example/waitlist-offer?event=gala&amp;token=${waitToken}">Book your seats</a>`,
        text_body: `Book your seats: https://venue.example/waitlist-offer?event=gala&token=${waitToken}\n`,
      })
      .returning('id');

    // The column this migration adds is dropped first, so `up` runs as it does on a database from before it.
    await knex().schema.alterTable('email_messages', (t) => t.dropColumn('guest_tokens_sealed'));
    await redactLedgerMigration(knex());

    const legacy = await stored(queued.id);
    expect(legacy.text).not.to.contain(manageToken);
    expect(legacy.row.text_body).to.equal(`View or manage your booking: ${page}#token=${PLACEHOLDER}\n`);
    expect(legacy.row.html_body).to.contain(`href="${page}#token=${PLACEHOLDER}"`);
    const ics = legacy.files[0].content.toString('utf8');
    expect(ics).not.to.contain('token');
    expect(ics.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).to.equal(true);
    expect(ics.replace(/\r\n[ \t]/g, '')).to.contain(`\r\nURL:${page}\r\n`).and.contain(`DESCRIPTION:VN-LEGACY\\n2 × Dinner\\n${page}\r\n`);
    expect(legacy.row.attachments[0].size).to.equal(legacy.files[0].content.length);
    expect((await deliveredNow(knex(), queued.id)).text).to.contain(`${page}#token=${manageToken}`);

    const offerRow = await stored(sentOffer.id);
    expect(offerRow.text).not.to.contain(waitToken);
    expect(offerRow.row.guest_tokens_sealed, 'a sent message keeps no token').to.equal(null);
    expect(offerRow.row.html_body).to.contain(`?event=gala&amp;token=${PLACEHOLDER}`);
  });
});
