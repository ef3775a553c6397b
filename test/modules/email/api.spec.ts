import { expect } from 'chai';
import { recordEmail, type RecordEmailInput } from '../../../server/modules/email/commands/recordEmail.ts';
import { buildApiKey, buildMemberSession, permissionMap } from '../../helpers/factories.ts';
import { eventually } from '../../helpers/eventually.ts';
import { startFakeSmtp, type FakeSmtp } from '../../helpers/mail.ts';
import { cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';

const message = (to: string, template: 'test-message' | 'reservation-confirmation' = 'test-message', extra: Partial<RecordEmailInput> = {}): RecordEmailInput =>
  (template === 'test-message'
    ? { to, template, locale: 'vi', data: { note: 'Lan <b>Nguyen</b>' }, ...extra }
    : {
        to,
        template,
        locale: 'en',
        data: {
          guestName: 'Minh',
          showName: 'Saigon Nights',
          startsAt: '2026-12-05T12:30:00Z',
          partySize: 2,
          totalVnd: 1_500_000,
          reservationReference: 'RSV-1',
          checkInToken: 'chk_1',
        },
        ...extra,
      }) as RecordEmailInput;

/** Records a message the way a command does: in its transaction, the send job enqueued with it. */
async function record(server: TestServer, input: RecordEmailInput, options: { rollback?: boolean } = {}) {
  const { jobs, config } = server.app.context;
  const enqueue = (queue: string, data: object, opts?: { trx?: any }) => jobs.enqueue(queue, data, opts);
  const rolledBack = new Error('rolled back on purpose');
  try {
    return await server.db.knex.transaction(async (trx) => {
      const row = await recordEmail(trx, input, { enqueue, emailFrom: config.emailFrom });
      if (options.rollback) throw rolledBack;
      return row;
    });
  } catch (err) {
    if (err !== rolledBack) throw err;
    return undefined;
  }
}

const sendJobs = async (server: TestServer) =>
  Number((await server.db.knex('pgboss.job').where('name', 'email.send').count({ n: '*' }).first())?.n ?? 0);

describe('email: the ledger over HTTP (GET /api/email/messages)', () => {
  let server: TestServer;
  let staff: Record<string, string>;
  let admin: Record<string, string>;

  before(async () => {
    server = await startTestServer();
    staff = cookieHeader((await buildMemberSession('member')).token);
    admin = cookieHeader((await buildMemberSession('admin')).token);
  });
  after(() => server.close());

  it('is staff+: 401 anonymous, 403 for an API key without email:read, 200 with it', async () => {
    expect((await server.request('GET', '/api/email/messages')).status).to.equal(401);
    const other = await buildApiKey({ permissions: permissionMap('users:read') });
    expect((await server.request('GET', '/api/email/messages', { headers: { 'x-api-key': other.key } })).body.code).to.equal('missing_permission');
    const reader = await buildApiKey({ permissions: permissionMap('email:read') });
    expect((await server.request('GET', '/api/email/messages', { headers: { 'x-api-key': reader.key } })).status).to.equal(200);
    expect((await server.request('GET', `/api/email/messages/${crypto.randomUUID()}`)).status).to.equal(401);
    // The bodies are admin+ with a permission of their own: email:read is not enough for a key.
    expect((await server.request('GET', `/api/email/messages/${crypto.randomUUID()}/content`)).status).to.equal(401);
    expect((await server.request('GET', `/api/email/messages/${crypto.randomUUID()}/content`, { headers: { 'x-api-key': reader.key } })).body.code).to.equal('missing_permission');
    const contentReader = await buildApiKey({ permissions: permissionMap('email:read-content') });
    expect((await server.request('GET', `/api/email/messages/${crypto.randomUUID()}/content`, { headers: { 'x-api-key': contentReader.key } })).status).to.equal(404);
  });

  it('lists newest first without the rendered snapshots, filters, pages; one message carries them', async () => {
    const first = (await record(server, message('lan@example.com')))!;
    // A second earlier than the next one: rows recorded within one clock tick would tie (ties go by id).
    await server.db.knex('email_messages').where('id', first.id).update({ created_at: new Date(Date.now() - 1000) });
    const second = (await record(server, message('minh@example.com', 'reservation-confirmation', { reservationId: '22222222-2222-4222-8222-222222222222' })))!;

    const all = await server.request('GET', '/api/email/messages', { headers: staff });
    expect(all.status).to.equal(200);
    expect(all.body.total).to.equal(2);
    expect(all.body.items.map((m: { id: string }) => m.id)).to.deep.equal([second.id, first.id]);
    for (const item of all.body.items) expect(item).to.not.have.any.keys('htmlBody', 'textBody', 'providerResponse');
    expect(all.body.items[0].attachments[0]).to.include({ contentType: 'image/png' });

    const byRecipient = await server.request('GET', '/api/email/messages?to=LAN@example.com&status=QUEUED', { headers: staff });
    expect(byRecipient.body.items.map((m: { id: string }) => m.id)).to.deep.equal([first.id]);
    const byReservation = await server.request('GET', '/api/email/messages?reservationId=22222222-2222-4222-8222-222222222222&template=reservation-confirmation', { headers: staff });
    expect(byReservation.body.items.map((m: { id: string }) => m.id)).to.deep.equal([second.id]);
    const future = await server.request('GET', `/api/email/messages?createdFrom=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`, { headers: staff });
    expect(future.body.total).to.equal(0);
    const paged = await server.request('GET', '/api/email/messages?limit=1&offset=1', { headers: staff });
    expect(paged.body).to.include({ total: 2, limit: 1, offset: 1 });
    expect(paged.body.items.map((m: { id: string }) => m.id)).to.deep.equal([first.id]);

    // One message: its delivery state for staff; its rendered snapshots for admin+ only (issue 32 §3).
    const one = await server.request('GET', `/api/email/messages/${first.id}`, { headers: staff });
    expect(one.status).to.equal(200);
    expect(one.body).to.include({ id: first.id, status: 'QUEUED', providerResponse: null }).and.not.have.any.keys('htmlBody', 'textBody');
    expect((await server.request('GET', `/api/email/messages/${first.id}/content`, { headers: staff })).status).to.equal(403);
    const content = await server.request('GET', `/api/email/messages/${first.id}/content`, { headers: admin });
    expect(content.status).to.equal(200);
    expect(content.body.htmlBody).to.include('Lan &lt;b&gt;Nguyen&lt;/b&gt;');
    expect(content.body.textBody).to.include('Lan <b>Nguyen</b>');
  });

  it('answers 400 naming the field for a bad filter, 404 for an unknown message', async () => {
    const bad = await server.request('GET', '/api/email/messages?status=SENDING&customerId=urn:uuid:x&limit=0', { headers: staff });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).to.include.members(['query/status', 'query/customerId', 'query/limit']);
    expect((await server.request('GET', `/api/email/messages/${crypto.randomUUID()}`, { headers: staff })).status).to.equal(404);
    expect((await server.request('GET', '/api/email/messages/not-a-uuid', { headers: staff })).status).to.equal(400);
    expect((await server.request('GET', `/api/email/messages/${crypto.randomUUID()}/content`, { headers: admin })).status).to.equal(404);
    expect((await server.request('GET', '/api/email/messages/not-a-uuid/content', { headers: admin })).status).to.equal(400);
  });
});

describe('email: recorded in a command, sent by the job engine @db', () => {
  let server: TestServer;
  let smtp: FakeSmtp;

  before(async () => {
    smtp = await startFakeSmtp();
    server = await startTestServer({ config: { smtpUrl: smtp.url }, jobs: { workers: true, pollingIntervalSeconds: 1 } });
  });
  after(async () => {
    await server.close();
    await smtp.close();
  });

  it('sends nothing when the caller’s transaction rolls back: no row, no job', async () => {
    const before = await sendJobs(server);
    expect(await record(server, message('rolled-back@example.com'), { rollback: true })).to.equal(undefined);
    expect(await server.db.knex('email_messages').where('to_address', 'rolled-back@example.com').first()).to.equal(undefined);
    expect(await sendJobs(server)).to.equal(before);
  });

  it('delivers a committed message through the engine: the mail arrives and the row is SENT', async () => {
    const row = (await record(server, message('guest@example.com', 'reservation-confirmation')))!;
    const sent = await eventually(async () => {
      const current = await server.db.knex('email_messages').where('id', row.id).first();
      return current?.status === 'SENT' ? current : undefined;
    }, { timeoutMs: 20_000, what: 'the row to be SENT' });
    expect(sent.attempts).to.equal(1);
    expect(smtp.received.map((mail) => mail.envelope.to)).to.deep.include(['guest@example.com']);
    expect(smtp.received.some((mail) => mail.envelope.to.includes('rolled-back@example.com'))).to.equal(false);
  });
});
