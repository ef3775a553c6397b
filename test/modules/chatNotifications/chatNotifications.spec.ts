import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

const SERVICE_TOKEN = 'svc-llm-service-token-0123456789';
const PATH = '/api/ai/customer-support/chat-notifications';
const auth = { 'x-service-token': SERVICE_TOKEN };

const transcript = {
  conversationId: 'chat_01JDX4V6Q8',
  locale: 'en',
  pageUrl: 'https://venue.example/en/shows',
  startedAt: '2026-11-28T12:01:00Z',
  messages: [
    { role: 'user', text: 'Can we bring a <b>birthday</b> cake?', at: '2026-11-28T12:01:00Z' },
    { role: 'assistant', text: 'Yes — please tell us when you book.', at: '2026-11-28T12:01:04Z' },
  ],
};

describe('chatNotifications: POST /api/ai/customer-support/chat-notifications', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ config: { accessTokens: { 'service-token': SERVICE_TOKEN }, venueNotificationsEmail: 'events@venue.example' } });
  });
  after(() => server.close());

  it('stores the full transcript and e-mails it to VENUE_NOTIFICATIONS_EMAIL through the ledger', async () => {
    const res = await server.request('POST', PATH, { headers: auth, body: transcript });
    expect(res.status).to.equal(201);
    expect(res.body.messageCount).to.equal(2);
    const row = await server.db.knex('chat_transcripts').where({ id: res.body.id }).first();
    expect(row).to.include({ conversation_id: 'chat_01JDX4V6Q8', locale: 'en', message_count: 2, email_message_id: res.body.emailMessageId });
    expect(row.messages).to.deep.equal(transcript.messages);
    const email = await server.db.knex('email_messages').where({ id: res.body.emailMessageId }).first();
    expect(email).to.include({ status: 'QUEUED', to_address: 'events@venue.example', template: 'chat-transcript', locale: 'en' });
    expect(email.subject).to.equal('Website chat transcript (2 messages, chat_01JDX4V6Q8)');
    expect(email.text_body).to.include('Guest').and.include('Can we bring a <b>birthday</b> cake?').and.include('Yes — please tell us when you book.');
    expect(email.html_body).to.include('Can we bring a &lt;b&gt;birthday&lt;/b&gt; cake?'); // escaped in HTML
    const jobs = (await server.db.knex.raw(`select count(*)::int as n from pgboss.job where name = 'email.send' and data->>'messageId' = ?`, [email.id])) as { rows: Array<{ n: number }> };
    expect(jobs.rows[0].n).to.equal(1);
  });

  it('needs the service token in x-service-token (401 without it or with a wrong one)', async () => {
    const before = await server.db.knex('chat_transcripts').count({ n: '*' }).first();
    for (const headers of [{}, { 'x-service-token': 'wrong' }, { authorization: `Bearer ${SERVICE_TOKEN}` }] as Array<Record<string, string>>) {
      const res = await server.request('POST', PATH, { headers, body: transcript });
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('invalid_service_token');
    }
    expect(await server.db.knex('chat_transcripts').count({ n: '*' }).first()).to.deep.equal(before);
  });

  it('is not callable by browsers: a request with Origin is refused, and no CORS headers or preflight are ever answered', async () => {
    const res = await server.request('POST', PATH, { headers: { ...auth, origin: 'https://venue.example' }, body: transcript });
    expect(res.status).to.equal(403);
    expect(res.body.code).to.equal('browser_not_allowed');
    expect(res.headers.get('access-control-allow-origin')).to.equal(null);
    expect(res.headers.get('access-control-allow-credentials')).to.equal(null);
    const preflight = await server.request('OPTIONS', PATH, {
      headers: { origin: 'https://venue.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-service-token,content-type' },
      unchecked: true,
    });
    expect(preflight.headers.get('access-control-allow-origin')).to.equal(null);
    expect(preflight.headers.get('access-control-allow-methods')).to.equal(null);
    // Spelled otherwise (case, trailing slashes): still no preflight answered.
    for (const variant of [`${PATH}/`, `${PATH}//`, PATH.replace('customer-support', 'Customer-Support')]) {
      const other = await server.request('OPTIONS', variant, {
        headers: { origin: 'https://venue.example', 'access-control-request-method': 'POST' },
        unchecked: true,
      });
      expect(other.headers.get('access-control-allow-origin'), variant).to.equal(null);
      expect(other.headers.get('access-control-allow-methods'), variant).to.equal(null);
    }
    const ok = await server.request('POST', PATH, { headers: auth, body: transcript });
    expect(ok.headers.get('access-control-allow-origin')).to.equal(null);
  });

  it('validates the transcript (roles, sizes, at least one message)', async () => {
    for (const body of [{ ...transcript, messages: [] }, { ...transcript, messages: [{ role: 'system', text: 'x' }] }, { ...transcript, extra: 1 }, { messages: transcript.messages }]) {
      const res = await server.request('POST', PATH, { headers: auth, body });
      expect(res.status, JSON.stringify(body)).to.equal(400);
    }
  });
});

describe('chatNotifications: without VENUE_NOTIFICATIONS_EMAIL or SVC_LLM_SERVICE_TOKEN', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ config: { accessTokens: { 'service-token': SERVICE_TOKEN }, venueNotificationsEmail: undefined } });
  });
  after(() => server.close());

  it('stores the transcript without e-mailing it', async () => {
    const res = await server.request('POST', PATH, { headers: auth, body: transcript });
    expect(res.status).to.equal(201);
    expect(res.body.emailMessageId).to.equal(null);
    expect(Number((await server.db.knex('email_messages').count({ n: '*' }).first())?.n)).to.equal(0);
  });

  it('answers 503 not_configured when the service token is unset', async () => {
    const unconfigured = await startTestServer({ keepData: true });
    try {
      const res = await unconfigured.request('POST', PATH, { headers: auth, body: transcript });
      expect(res.status).to.equal(503);
      expect(res.body.code).to.equal('not_configured');
    } finally {
      await unconfigured.close();
    }
  });
});
