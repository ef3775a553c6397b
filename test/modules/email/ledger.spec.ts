import { expect } from 'chai';
import type { Knex } from 'knex';
import { Problem } from '../../../server/platform/http/problem.ts';
import { presentEmailListItem, presentEmailMessage, presentEmailMessageContent } from '../../../server/modules/email/presenters.ts';
import { recordEmail, type RecordEmailInput } from '../../../server/modules/email/commands/recordEmail.ts';
import { getMessage, listMessages } from '../../../server/modules/email/queries.ts';
import { resetData, testDatabase } from '../../helpers/database.ts';
import { enqueueStub } from '../../helpers/mail.ts';

const FROM = 'Venue <no-reply@venue.test>';
const CUSTOMER = '33333333-3333-4333-8333-333333333333';
const RESERVATION = '44444444-4444-4444-8444-444444444444';

const reservationData = (overrides: Record<string, unknown> = {}) => ({
  guestName: 'Minh Tran',
  showName: 'Saigon Nights',
  startsAt: '2026-12-05T12:30:00Z',
  partySize: 4,
  totalVnd: 3_250_000,
  reservationReference: 'RSV-ABCD',
  checkInToken: 'chk_token_1',
  ...overrides,
});

describe('email: the ledger (recordEmail, templates, list and detail) @db', () => {
  let knex: Knex;

  before(async () => {
    knex = (await testDatabase()).knex;
    await resetData(knex);
  });

  async function record(input: RecordEmailInput) {
    const stub = enqueueStub();
    return knex.transaction((trx) => recordEmail(trx, input, { enqueue: stub.enqueue, emailFrom: FROM }));
  }

  describe('transactions', () => {
    it('a rolled-back caller transaction leaves no row, no attachment bytes and no surviving job', async () => {
      const stub = enqueueStub();
      const before = await knex('email_messages').count<{ count: string }[]>('* as count');
      let recordedId: string | undefined;
      const failure = new Error('the reservation could not be saved');
      const outcome = await knex
        .transaction(async (trx) => {
          const message = await recordEmail(
            trx,
            { to: 'rollback@example.com', template: 'reservation-confirmation', locale: 'en', data: reservationData() },
            { enqueue: stub.enqueue, emailFrom: FROM },
          );
          recordedId = message.id;
          expect(await trx('email_messages').where('id', message.id).first()).to.include({ status: 'QUEUED' });
          throw failure;
        })
        .catch((err: unknown) => err);
      expect(outcome).to.equal(failure);
      expect(recordedId).to.be.a('string');
      expect(stub.calls, 'the send was enqueued inside the transaction').to.have.length(1);
      expect(stub.calls[0].trx?.isCompleted()).to.equal(true);
      expect(await stub.committed(), 'nothing enqueued survives the rollback').to.deep.equal([]);
      expect(await knex('email_messages').where('id', recordedId!).first()).to.equal(undefined);
      expect(await knex('email_attachments').where('message_id', recordedId!)).to.deep.equal([]);
      expect(await knex('email_messages').count<{ count: string }[]>('* as count')).to.deep.equal(before);
    });

    it('a committed one keeps the row and its job', async () => {
      const stub = enqueueStub();
      const message = await knex.transaction((trx) =>
        recordEmail(trx, { to: 'commit@example.com', template: 'test-message', data: {} }, { enqueue: stub.enqueue, emailFrom: FROM }),
      );
      expect(await stub.committed()).to.deep.equal([{ queue: 'email.send', data: { messageId: message.id } }]);
      expect(await knex('email_messages').where('id', message.id).first()).to.include({ status: 'QUEUED', template: 'test-message', locale: 'en' });
    });

    it('refuses a recipient that is not one address (header injection included), writing and enqueueing nothing', async () => {
      for (const to of ['not-an-address', 'a@example.com, b@example.com', 'a@example.com\r\nBcc: victim@example.com']) {
        const stub = enqueueStub();
        const err = await knex
          .transaction((trx) => recordEmail(trx, { to, template: 'test-message', data: {} }, { enqueue: stub.enqueue, emailFrom: FROM }))
          .catch((e: unknown) => e);
        expect(err, to).to.be.instanceOf(Problem);
        expect((err as Problem).status).to.equal(422);
        expect(stub.calls).to.have.length(0);
      }
      expect(await knex('email_messages').where('to_address', 'like', '%victim%')).to.deep.equal([]);
    });
  });

  describe('templates', () => {
    it('escapes HTML in the data: a guest name like <script> is text in the HTML part, and stays readable in the text part', async () => {
      const guestName = '<script>alert("x")</script> & <b>Co</b>';
      const message = await record({
        to: 'escape@example.com',
        template: 'reservation-confirmation',
        locale: 'en',
        data: reservationData({ guestName, showName: 'Night\r\nBcc: victim@example.com' }),
      });
      const row = await knex('email_messages').where('id', message.id).first();
      expect(row.html_body).not.to.contain('<script>');
      expect(row.html_body).not.to.contain('<b>Co</b>');
      expect(row.html_body).to.contain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;Co&lt;/b&gt;');
      expect(row.text_body).to.contain(`Thank you, ${guestName}!`);
      // The subject is one line whatever the data holds (no header can be smuggled in).
      expect(row.subject).not.to.match(/[\r\n]/);
      expect(row.subject).to.equal('Your reservation is confirmed: Night Bcc: victim@example.com, 5 December 2026');
    });

    it('vi renders Vietnamese text, VND as 3.250.000 ₫ and the date in Vietnamese, venue time', async () => {
      const message = await record({ to: 'vi@example.com', template: 'reservation-confirmation', locale: 'vi-VN', data: reservationData() });
      const row = await knex('email_messages').where('id', message.id).first();
      expect(row.locale).to.equal('vi');
      expect(row.subject).to.equal('Xác nhận đặt chỗ: Saigon Nights, 5 tháng 12, 2026');
      expect(row.html_body).to.contain('lang="vi"').and.contain('Cảm ơn quý khách Minh Tran!').and.contain('Tổng cộng');
      expect(row.html_body).to.match(/3\.250\.000\s₫/);
      expect(row.text_body).to.match(/Tổng cộng:\s+3\.250\.000\s₫/);
      expect(row.text_body).to.contain('19:30, Thứ Bảy, 5 tháng 12, 2026');
      expect(row.text_body).to.contain('Số khách:     4');

      const en = await record({ to: 'en@example.com', template: 'reservation-confirmation', locale: 'en', data: reservationData() });
      const enRow = await knex('email_messages').where('id', en.id).first();
      expect(enRow.text_body).to.contain('Total:         3,250,000 VND');
      expect(enRow.text_body).not.to.contain('₫');
    });

    it('a locale without its template file falls back to en', async () => {
      const message = await record({ to: 'fr@example.com', template: 'test-message', locale: 'fr-FR', data: { note: 'Bonjour' } });
      expect(message.locale).to.equal('en');
      expect(message.subject).to.equal('Test message from Venue');
      expect(message.textBody).to.contain('Bonjour');
    });

    it('refuses data a template cannot render (a fractional VND total), writing nothing', async () => {
      const err = await knex
        .transaction((trx) =>
          recordEmail(
            trx,
            { to: 'bad@example.com', template: 'reservation-confirmation', data: reservationData({ totalVnd: 10.5 }) as never },
            { enqueue: enqueueStub().enqueue, emailFrom: FROM },
          ),
        )
        .catch((e: unknown) => e);
      expect(err).to.be.instanceOf(TypeError);
      expect(await knex('email_messages').where('to_address', 'bad@example.com')).to.deep.equal([]);
    });
  });

  describe('list and detail', () => {
    let linked: string;
    before(async () => {
      await resetData(knex);
      linked = (
        await record({
          to: 'Guest.Linked@Example.com',
          template: 'reservation-confirmation',
          customerId: CUSTOMER,
          reservationId: RESERVATION,
          data: reservationData(),
        })
      ).id;
      await record({ to: 'other@example.com', template: 'test-message', data: {} });
      await knex('email_messages').where('to_address', 'other@example.com').update({ status: 'FAILED', last_error: 'EENVELOPE: 550' });
    });

    it('never selects the rendered snapshots, model or presented', async () => {
      const sql: string[] = [];
      const onQuery = (query: { sql: string }) => sql.push(query.sql);
      knex.on('query', onQuery);
      const page = await listMessages(knex, {}, { limit: 10 }).finally(() => knex.off('query', onQuery));
      const select = sql.find((q) => /order by/i.test(q))!;
      expect(select).to.be.a('string');
      expect(select).not.to.match(/html_body|text_body|\*/);
      expect(page.total).to.equal(2);
      expect(page.items).to.have.length(2);
      for (const item of page.items) {
        expect(item).not.to.have.property('htmlBody');
        expect(item).not.to.have.property('textBody');
        const presented = presentEmailListItem(item);
        expect(presented).not.to.have.any.keys('htmlBody', 'textBody', 'html', 'text');
        expect(JSON.stringify(presented)).not.to.contain('<html');
      }
      const presented = presentEmailListItem(page.items.find((i) => i.id === linked)!);
      expect(presented).to.deep.include({ status: 'QUEUED', to: 'Guest.Linked@Example.com', template: 'reservation-confirmation', customerId: CUSTOMER, reservationId: RESERVATION, attempts: 0, sentAt: null });
      expect(presented.attachments).to.deep.equal([
        { filename: 'check-in.png', contentType: 'image/png', size: presented.attachments[0].size, contentId: 'checkin-qr@venue' },
        { filename: 'check-in-RSV-ABCD.png', contentType: 'image/png', size: presented.attachments[0].size, contentId: null },
      ]);
      expect(presented.createdAt).to.match(/^\d{4}-\d\d-\d\dT/);
    });

    it('filters by status, recipient (case-insensitive), customer, reservation, template and creation time', async () => {
      const ids = async (filters: Parameters<typeof listMessages>[1]) => (await listMessages(knex, filters)).items.map((i) => i.id);
      expect(await ids({ status: 'QUEUED' })).to.deep.equal([linked]);
      expect((await listMessages(knex, { status: 'FAILED' })).items.map((i) => i.toAddress)).to.deep.equal(['other@example.com']);
      expect(await ids({ to: 'guest.linked@example.COM' })).to.deep.equal([linked]);
      expect(await ids({ customerId: CUSTOMER })).to.deep.equal([linked]);
      expect(await ids({ reservationId: RESERVATION })).to.deep.equal([linked]);
      expect(await ids({ template: 'reservation-confirmation' })).to.deep.equal([linked]);
      expect(await ids({ createdFrom: new Date(Date.now() + 60_000) })).to.deep.equal([]);
      expect(await ids({ createdTo: new Date(Date.now() + 60_000) })).to.have.length(2);
      const paged = await listMessages(knex, {}, { limit: 1, offset: 1 });
      expect(paged).to.include({ total: 2, limit: 1, offset: 1 });
      expect(paged.items).to.have.length(1);
    });

    it('the detail carries the snapshots only when asked for (admin+); an unknown or malformed id is a 404 problem', async () => {
      const detail = presentEmailMessage(await getMessage(knex, linked));
      expect(detail.id).to.equal(linked);
      expect(detail).to.include({ providerResponse: null }).and.not.have.any.keys('htmlBody', 'textBody');
      const content = presentEmailMessageContent(await getMessage(knex, linked, { withSnapshots: true }));
      expect(content.htmlBody).to.contain('<html').and.contain('Minh Tran');
      expect(content.textBody).to.contain('Thank you, Minh Tran!');
      expect(content.id).to.equal(linked);
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const err = await getMessage(knex, id).catch((e: unknown) => e);
        expect(err).to.be.instanceOf(Problem);
        expect((err as Problem).status).to.equal(404);
      }
    });
  });
});
