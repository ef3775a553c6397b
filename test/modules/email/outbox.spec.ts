import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { simpleParser } from 'mailparser';
import { loadConfig } from '../../../server/platform/config.ts';
import { createMailer } from '../../../server/platform/integrations/mail.ts';
import { deliverEmail } from '../../../server/modules/email/commands/deliverEmail.ts';
import { recordEmail } from '../../../server/modules/email/commands/recordEmail.ts';
import { resetData, testDatabase } from '../../helpers/database.ts';
import { enqueueStub, memoryLogger, PNG_SIGNATURE } from '../../helpers/mail.ts';

describe('email: development outbox (no SMTP_URL)', () => {
  let knex: Knex;
  let dataDir: string;

  before(async () => {
    knex = (await testDatabase()).knex;
    await resetData(knex);
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'venue-outbox-'));
  });
  after(() => fs.rm(dataDir, { recursive: true, force: true }));

  it('the configuration picks the outbox when SMTP_URL is unset, SMTP when set, and refuses another scheme without echoing it', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.smtpUrl).to.equal(undefined);
    expect(config.emailFrom).to.equal('Venue <no-reply@venue.local>');
    const { logger } = memoryLogger();
    expect(createMailer({ smtpUrl: config.smtpUrl, dataDir, timeoutMs: 1000 }, logger).kind).to.equal('outbox');
    expect(createMailer({ smtpUrl: 'smtp://127.0.0.1:2525', dataDir, timeoutMs: 1000 }, logger).kind).to.equal('smtp');
    let err: unknown;
    try {
      loadConfig({ SMTP_URL: 'http://user:s3cret@host' });
    } catch (e) {
      err = e;
    }
    expect(String(err)).to.match(/SMTP_URL/).and.not.to.contain('s3cret');
  });

  it('writes each message as a parseable .eml under DATA_DIR/outbox/ and logs its path', async () => {
    const { logger, lines } = memoryLogger();
    const mailer = createMailer({ dataDir, timeoutMs: 1000 }, logger);
    const message = await knex.transaction((trx) =>
      recordEmail(
        trx,
        {
          to: 'outbox@example.com',
          template: 'reservation-confirmation',
          locale: 'vi',
          data: {
            guestName: 'Hoa Le',
            showName: 'Đêm Sài Gòn',
            startsAt: '2026-12-24T13:00:00Z',
            partySize: 3,
            totalVnd: 2_100_000,
            reservationReference: 'RSV-OUT1',
            checkInToken: 'chk_outbox',
          },
        },
        { enqueue: enqueueStub().enqueue, emailFrom: 'Venue <no-reply@venue.local>' },
      ),
    );
    expect(await deliverEmail({ knex, mailer, logger }, message.id)).to.equal('sent');

    const files = await fs.readdir(path.join(dataDir, 'outbox'));
    expect(files).to.have.length(1);
    expect(files[0]).to.match(/\.eml$/);
    const file = path.join(dataDir, 'outbox', files[0]);
    const raw = await fs.readFile(file);
    expect(raw.includes('\r\n'), 'CRLF line ends (RFC 822)').to.equal(true);
    const parsed = await simpleParser(raw, { keepCidLinks: true });
    expect(parsed.subject).to.equal('Xác nhận đặt chỗ: Đêm Sài Gòn, 24 tháng 12, 2026');
    expect((parsed.to as { text: string }).text).to.equal('outbox@example.com');
    expect(parsed.messageId).to.equal(`<${message.id}@venue.local>`);
    expect(parsed.text).to.match(/2\.100\.000\s₫/);
    expect(parsed.html as string).to.contain('cid:checkin-qr@venue');
    expect(parsed.attachments[0].content.subarray(0, 8).equals(PNG_SIGNATURE)).to.equal(true);

    expect(lines.find((line) => line.msg === 'e-mail written to the development outbox')).to.include({ file });
    const row = await knex('email_messages').where('id', message.id).first();
    expect(row).to.include({ status: 'SENT', attempts: 1, provider_response: `outbox ${file}` });
  });
});
