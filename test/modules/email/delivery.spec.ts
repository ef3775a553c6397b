import { expect } from 'chai';
import type { Knex } from 'knex';
import { createMailer, type Mailer } from '../../../server/platform/integrations/mail.ts';
import { definitions as jobs, EMAIL_SEND_RETRY_LIMIT, isFinalAttempt } from '../../../server/modules/email/jobs.ts';
import { deliverEmail } from '../../../server/modules/email/commands/deliverEmail.ts';
import { recordEmail, type RecordEmailInput } from '../../../server/modules/email/commands/recordEmail.ts';
import { CHECK_IN_QR_CONTENT_ID } from '../../../server/modules/email/templates.ts';
import { resetData, testDatabase } from '../../helpers/database.ts';
import { enqueueStub, memoryLogger, PNG_SIGNATURE, startFakeSmtp, type FakeSmtp } from '../../helpers/mail.ts';

const FROM = 'Venue Test <no-reply@venue.test>';

const confirmation = (to: string, extra: Partial<RecordEmailInput> = {}): RecordEmailInput => ({
  to,
  template: 'reservation-confirmation',
  locale: 'en',
  customerId: '11111111-1111-4111-8111-111111111111',
  reservationId: '22222222-2222-4222-8222-222222222222',
  data: {
    guestName: 'Lan Nguyen',
    showName: 'Saigon Nights',
    startsAt: '2026-12-05T12:30:00Z',
    partySize: 2,
    totalVnd: 1_500_000,
    reservationReference: 'RSV-7Q2K',
    checkInToken: 'chk_9b1f0c2e7d',
  },
  ...extra,
}) as RecordEmailInput;

describe('email: delivery over SMTP (email.send)', () => {
  let knex: Knex;
  let smtp: FakeSmtp;
  let mailer: Mailer;
  const { logger } = memoryLogger();

  before(async () => {
    knex = (await testDatabase()).knex;
    await resetData(knex);
    smtp = await startFakeSmtp();
    mailer = createMailer({ smtpUrl: smtp.url, dataDir: '/nonexistent', timeoutMs: 5_000 }, logger);
  });
  after(async () => {
    mailer.close();
    await smtp.close();
  });
  beforeEach(() => {
    smtp.received.length = 0;
  });

  async function record(input: RecordEmailInput) {
    const stub = enqueueStub();
    const message = await knex.transaction((trx) => recordEmail(trx, input, { enqueue: stub.enqueue, emailFrom: FROM }));
    return { message, stub };
  }
  const row = (id: string) => knex('email_messages').where('id', id).first();
  const deps = () => ({ knex, mailer, logger });

  it('records a QUEUED row, enqueues email.send in the same transaction, and delivers it with headers, both parts and the inline QR', async () => {
    const { message, stub } = await record(confirmation('lan@example.com'));
    expect(stub.calls).to.have.length(1);
    expect(stub.calls[0]).to.include({ queue: 'email.send' });
    expect(stub.calls[0].data).to.deep.equal({ messageId: message.id });
    expect(stub.calls[0].trx, 'enqueued inside the caller transaction').to.be.a('function');
    expect(await stub.committed()).to.deep.equal([{ queue: 'email.send', data: { messageId: message.id } }]);
    expect(await row(message.id)).to.include({ status: 'QUEUED', attempts: 0, to_address: 'lan@example.com' });

    expect(await deliverEmail(deps(), message.id)).to.equal('sent');
    expect(smtp.received).to.have.length(1);
    const [mail] = smtp.received;
    expect(mail.envelope).to.deep.equal({ from: 'no-reply@venue.test', to: ['lan@example.com'] });
    expect(mail.parsed.from?.value).to.deep.equal([{ address: 'no-reply@venue.test', name: 'Venue Test' }]);
    expect((mail.parsed.to as { text: string }).text).to.equal('lan@example.com');
    expect(mail.parsed.subject).to.equal('Your reservation is confirmed: Saigon Nights, 5 December 2026');
    expect(mail.parsed.messageId).to.equal(`<${message.id}@venue.test>`);
    expect(mail.parsed.text).to.contain('Thank you, Lan Nguyen!').and.contain('1,500,000 VND').and.contain('Saturday, 5 December 2026 at 19:30');
    expect(mail.parsed.html).to.be.a('string');
    expect(mail.parsed.html as string).to.contain('Lan Nguyen').and.contain(`src="cid:${CHECK_IN_QR_CONTENT_ID}"`);

    // The QR inline (cid:) and the same PNG as a file; no `endsAt` in this data, so no calendar file.
    expect(mail.parsed.attachments).to.have.length(2);
    const [qr, file] = mail.parsed.attachments;
    expect(qr.contentType).to.equal('image/png');
    expect(qr.cid).to.equal(CHECK_IN_QR_CONTENT_ID);
    expect(qr.contentDisposition).to.equal('inline');
    expect(qr.content.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature').to.equal(true);
    expect(file).to.include({ filename: 'check-in-RSV-7Q2K.png', contentType: 'image/png', contentDisposition: 'attachment' });
    expect(file.content.equals(qr.content)).to.equal(true);
    expect(mail.parsed.text).to.contain('attached to this e-mail as check-in-RSV-7Q2K.png');

    const sent = await row(message.id);
    expect(sent).to.include({ status: 'SENT', attempts: 1, provider_message_id: `<${message.id}@venue.test>`, last_error: null });
    expect(sent.provider_response).to.match(/^250/);
    expect(sent.sent_at).to.be.instanceOf(Date);
    expect(sent.customer_id).to.equal('11111111-1111-4111-8111-111111111111');
    expect(sent.reservation_id).to.equal('22222222-2222-4222-8222-222222222222');
  });

  it('is idempotent: a SENT message is not sent again and no attempt is counted', async () => {
    const { message } = await record(confirmation('once@example.com'));
    expect(await deliverEmail(deps(), message.id)).to.equal('sent');
    expect(await deliverEmail(deps(), message.id)).to.equal('skipped');
    expect(await jobs[0].handler({ data: { messageId: message.id }, retryCount: 1, retryLimit: 5 }, { db: { knex }, mailer, logger })).to.equal('skipped');
    expect(smtp.received).to.have.length(1);
    expect(await row(message.id)).to.include({ status: 'SENT', attempts: 1 });
  });

  it('a recipient the server refuses (450): each attempt records the error and throws for a retry; the final one marks FAILED', async () => {
    const { message } = await record(confirmation('refused@example.com'));
    const [job] = jobs;
    expect(job).to.include({ name: 'email.send', retryLimit: EMAIL_SEND_RETRY_LIMIT, retryBackoff: true });
    expect(job.retryDelay).to.be.greaterThan(0);
    expect(job.expireInSeconds).to.be.greaterThan(0);

    // The engine's retry loop: retryCount 0 (first run) … retryLimit (last run).
    for (let retryCount = 0; retryCount < job.retryLimit; retryCount += 1) {
      const run = { data: { messageId: message.id }, retryCount, retryLimit: job.retryLimit };
      expect(isFinalAttempt(run)).to.equal(false);
      let thrown: unknown;
      await job.handler(run, { db: { knex }, mailer, logger }).catch((err: unknown) => (thrown = err));
      expect(thrown, `attempt ${retryCount + 1} throws`).to.be.instanceOf(Error);
      const current = await row(message.id);
      expect(current).to.include({ status: 'QUEUED', attempts: retryCount + 1 });
      expect(current.last_error).to.match(/450/);
    }
    const last = { data: { messageId: message.id }, retryCount: job.retryLimit, retryLimit: job.retryLimit };
    expect(isFinalAttempt(last)).to.equal(true);
    expect(await job.handler(last, { db: { knex }, mailer, logger })).to.equal('failed');

    const failed = await row(message.id);
    expect(failed).to.include({ status: 'FAILED', attempts: job.retryLimit + 1, sent_at: null, provider_message_id: null });
    expect(failed.last_error).to.match(/EENVELOPE.*450|450.*Mailbox temporarily unavailable/);
    expect(smtp.received).to.have.length(0);
    // A FAILED row is terminal: running the job again sends nothing.
    expect(await deliverEmail(deps(), message.id)).to.equal('skipped');
    expect((await row(message.id)).attempts).to.equal(job.retryLimit + 1);
  });

  it('a permanent refusal (550) fails at once, without a retry', async () => {
    const { message } = await record(confirmation('rejected@example.com'));
    expect(await deliverEmail(deps(), message.id, { finalAttempt: false })).to.equal('failed');
    const failed = await row(message.id);
    expect(failed).to.include({ status: 'FAILED', attempts: 1 });
    expect(failed.last_error).to.match(/550/);
  });

  it('sends caller file attachments after the template inline image, with their names and bytes', async () => {
    const pdf = Buffer.from('%PDF-1.4\n% test invoice\n', 'utf8');
    const { message } = await record(
      confirmation('files@example.com', { attachments: [{ filename: 'invoice RSV-7Q2K.pdf', contentType: 'application/pdf', content: pdf }] }),
    );
    expect((await row(message.id)).attachments).to.deep.equal([
      { filename: 'check-in.png', contentType: 'image/png', size: (await knex('email_attachments').where({ message_id: message.id, position: 0 }).first()).size, contentId: CHECK_IN_QR_CONTENT_ID },
      { filename: 'check-in-RSV-7Q2K.png', contentType: 'image/png', size: (await knex('email_attachments').where({ message_id: message.id, position: 1 }).first()).size, contentId: null },
      { filename: 'invoice RSV-7Q2K.pdf', contentType: 'application/pdf', size: pdf.length, contentId: null },
    ]);
    expect(await deliverEmail(deps(), message.id)).to.equal('sent');
    const attachments = smtp.received[0].parsed.attachments;
    expect(attachments.map((a) => a.filename)).to.deep.equal(['check-in.png', 'check-in-RSV-7Q2K.png', 'invoice RSV-7Q2K.pdf']);
    expect(attachments[2].contentDisposition).to.equal('attachment');
    expect(attachments[2].content.equals(pdf)).to.equal(true);
  });
});
