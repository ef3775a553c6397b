import { expect } from 'chai';
import { useAssistant } from '../../../server/assistant/index.ts';
import { guestLocale, manyChatChannel, manyChatFor, messageText, subscriberId } from '../../../server/modules/chatPlatform/service.ts';
import { runTurn } from '../../../server/modules/chatPlatform/commands/runTurn.ts';
import { RetryTurn } from '../../../server/modules/chatPlatform/turns.ts';
import { startFakeManyChat, type FakePlatform } from '../../helpers/fakeChatPlatforms.ts';
import { eventually } from '../../helpers/eventually.ts';
import { memoryLogger } from '../../helpers/mail.ts';
import { scriptedAssistant } from '../../helpers/scriptedAssistant.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

const TOKEN = 'chat-webhook-token-0123456789';
const API_TOKEN = 'manychat-api-token-abcdef';
const PATH = '/llm/chat-platform';
const auth = { 'x-svc-chat-token': TOKEN };

describe('chatPlatform: POST /llm/chat-platform (ManyChat)', () => {
  let server: TestServer;
  let manychat: FakePlatform;
  const agent = scriptedAssistant();
  const turns = () => server.db.knex('chat_turns').orderBy('created_at');
  const queuedJobs = async () =>
    Number(((await server.db.knex.raw(`select count(*)::int as n from pgboss.job where name = 'chatPlatform.turn'`)) as { rows: Array<{ n: number }> }).rows[0].n);

  before(async () => {
    manychat = await startFakeManyChat();
    server = await startTestServer({
      // The public site the agent's links (and the route data) are on.
      config: { accessTokens: { 'chat-webhook-token': TOKEN }, chatApi: { baseUrl: manychat.url, token: API_TOKEN, timeoutMs: 500 }, publicSiteUrl: 'https://venue.example' },
    });
    useAssistant(server.app.context, agent);
  });
  after(async () => {
    await server.close();
    await manychat.close();
  });
  beforeEach(async () => {
    agent.reset();
    manychat.reset();
    await server.db.knex('chat_turns').delete();
    await server.db.knex.raw('truncate pgboss.job');
  });

  /** Runs the turn's job body as the engine would (attempt n of 4). */
  const run = (turnId: string, attempt = 1) => {
    const { logger, lines } = memoryLogger();
    const outcome = runTurn(server.app.context, turnId, manyChatChannel(manyChatFor(server.app.context)), { attempt, retryLimit: 3, log: logger });
    return { outcome, lines };
  };
  const queue = async (body: Record<string, unknown>) => {
    const res = await server.request('POST', PATH, { headers: auth, body: { subscriber_id: 1234567890, ...body } });
    expect(res.status).to.equal(200);
    const [row] = await turns();
    return row;
  };

  describe('the request', () => {
    it('reads the text, the subscriber id and the locale from the first field that has them', () => {
      expect(messageText({ text: ' ', message: 'from message', query: 'q' })).to.equal('from message');
      expect(messageText({ contact: { last_input_text: 'from contact' } })).to.equal('from contact');
      expect(messageText({ last_input_text: 'first', text: 'second' })).to.equal('first');
      expect(messageText({})).to.equal(undefined);
      expect(subscriberId({ subscriber_id: 'abc', id: '', user_id: '987', contact: { id: 5 } })).to.equal('987');
      expect(subscriberId({ contact: { user_id: 42 } })).to.equal('42');
      expect(subscriberId({ subscriber_id: 12.5, contact: { id: 'x1' } })).to.equal(undefined);
      expect(guestLocale({ locale: 'vi_VN' }, ['en', 'vi'])).to.equal('vi');
      expect(guestLocale({ locale: 'fr_FR', language: 'Vietnamese' }, ['en', 'vi'])).to.equal('vi');
      expect(guestLocale({ contact: { locale: 'de_DE' } }, ['en', 'vi'])).to.equal('en');
    });

    it('refuses a missing or wrong token with 401 and queues nothing', async () => {
      const body = { subscriber_id: 1, last_input_text: 'hi' };
      const missing = await server.request('POST', PATH, { body });
      const wrong = await server.request('POST', PATH, { headers: { 'x-svc-chat-token': `${TOKEN}x` }, body });
      const wrongBearer = await server.request('POST', PATH, { headers: { authorization: 'Bearer nope' }, body });
      for (const res of [missing, wrong, wrongBearer]) {
        expect(res.status).to.equal(401);
        expect(res.body.code).to.equal('invalid_webhook_token');
      }
      expect(await turns()).to.have.length(0);
      expect(await queuedJobs()).to.equal(0);
      expect(agent.turns).to.have.length(0);
    });

    it('with a subscriber id: answers a localized v2 acknowledgement at once and queues one durable turn', async () => {
      const res = await server.request('POST', PATH, {
        headers: { authorization: `Bearer ${TOKEN}` },
        body: { channel: 'instagram', locale: 'vi_VN', last_input_text: 'Tối thứ bảy còn chỗ không?', contact: { id: '555000111', first_name: 'Lan', custom_fields: {} } },
      });
      expect(res.status).to.equal(200);
      expect(res.body.version).to.equal('v2');
      expect(res.body.content.type).to.equal('instagram');
      expect(res.body.content.messages).to.have.length(1);
      expect(res.body.content.messages[0].text).to.match(/Cảm ơn/);
      const [row] = await turns();
      expect(row).to.include({ source: 'chat-platform', channel: 'instagram', recipient: '555000111', locale: 'vi', status: 'QUEUED', guest_text: 'Tối thứ bảy còn chỗ không?' });
      expect(await queuedJobs()).to.equal(1);
      expect(agent.turns).to.have.length(0); // nothing generated on the request path
      const en = await server.request('POST', PATH, { headers: auth, body: { channel: 'facebook', subscriber_id: 7, text: 'Hello' } });
      expect(en.body).to.deep.equal({ version: 'v2', content: { messages: [{ type: 'text', text: 'Thanks for your message! Give me a moment while I look that up for you.' }] } });
    });

    it('without a subscriber id: generates now and answers with the v2 body holding the answer', async () => {
      agent.answer = () => ({ text: 'We open at 18:00. Book: https://venue.example/en/shows', links: ['https://venue.example/en/shows'], audit: { invalid: [] } });
      const res = await server.request('POST', PATH, { headers: auth, body: { channel: 'telegram', language: 'en', query: 'When do you open?' } });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ version: 'v2', content: { type: 'telegram', messages: [{ type: 'text', text: 'We open at 18:00. Book: https://venue.example/en/shows' }] } });
      expect(agent.turns[0]).to.deep.include({ locale: 'en', channel: 'telegram', messages: [{ role: 'user', text: 'When do you open?' }] });
      expect(await turns()).to.have.length(0);
    });

    it('response_mode async (any case, spaces around) or blank: with a subscriber id, the acknowledgement and a queued turn', async () => {
      for (const [n, mode] of [['1', 'async'], ['2', ' ASYNC '], ['3', ''], ['4', null]] as const) {
        const res = await server.request('POST', PATH, { headers: auth, body: { channel: 'facebook', subscriber_id: Number(n), text: 'Hello', response_mode: mode } });
        expect(res.status).to.equal(200);
        expect(res.body.content.messages[0].text, JSON.stringify(mode)).to.match(/^Thanks for your message!/);
      }
      expect((await turns()).map((t: any) => t.recipient).sort()).to.deep.equal(['1', '2', '3', '4']);
      expect(await queuedJobs()).to.equal(4);
      expect(agent.turns).to.have.length(0);
    });

    it('any other response_mode (sync): answers now in the v2 body even with a subscriber id, and queues nothing', async () => {
      agent.answer = () => ({ text: 'Doors open at 18:30. See https://venue.example/en/shows', links: ['https://venue.example/en/shows'], audit: { invalid: [] } });
      const res = await server.request('POST', PATH, {
        headers: auth,
        body: { channel: 'whatsapp', subscriber_id: 1234567890, response_mode: 'sync', locale: 'en', last_input_text: 'When are the doors?' },
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ version: 'v2', content: { type: 'whatsapp', messages: [{ type: 'text', text: 'Doors open at 18:30. See https://venue.example/en/shows' }] } });
      expect(agent.turns).to.have.length(1);
      expect(agent.turns[0]).to.deep.include({ locale: 'en', channel: 'whatsapp', messages: [{ role: 'user', text: 'When are the doors?' }] });
      expect(await turns()).to.have.length(0);
      expect(await queuedJobs()).to.equal(0);
      expect(manychat.requests).to.have.length(0);

      // A failing agent on the synchronous path: 503, as without a subscriber id.
      agent.answer = () => Promise.reject(new Error('model down'));
      const failed = await server.request('POST', PATH, { headers: auth, body: { subscriber_id: 1, response_mode: 'sync', text: 'hi' } });
      expect(failed.status).to.equal(503);
      expect(failed.body.code).to.equal('assistant_unavailable');
      expect(await turns()).to.have.length(0);
    });

    it('without a subscriber id and a failing agent: 503 assistant_unavailable; without any text: 422; unknown channel: 400', async () => {
      agent.answer = () => Promise.reject(new Error('model down'));
      const failed = await server.request('POST', PATH, { headers: auth, body: { text: 'hi' } });
      expect(failed.status).to.equal(503);
      expect(failed.body.code).to.equal('assistant_unavailable');
      const empty = await server.request('POST', PATH, { headers: auth, body: { subscriber_id: 1, last_input_text: '  ' } });
      expect(empty.status).to.equal(422);
      expect(empty.body.code).to.equal('no_message_text');
      const channel = await server.request('POST', PATH, { headers: auth, body: { channel: 'sms', text: 'hi' } });
      expect(channel.status).to.equal(400);
      expect(await turns()).to.have.length(0);
    });
  });

  describe('the background turn', () => {
    it('generates, sends through sendContent, and ends SENT with timings kept and the guest’s text deleted', async () => {
      const row = await queue({ channel: 'whatsapp', last_input_text: 'Is there parking?' });
      const { outcome } = run(row.id);
      expect(await outcome).to.deep.equal({ status: 'SENT', errorCode: undefined });
      const [req] = await manychat.received(1);
      expect(req.path).to.equal('/fb/sending/sendContent');
      expect(req.headers.authorization).to.equal(`Bearer ${API_TOKEN}`);
      expect(req.body).to.deep.equal({
        subscriber_id: 1234567890,
        data: { version: 'v2', content: { type: 'whatsapp', messages: [{ type: 'text', text: 'Answer (en): Is there parking?' }] } },
      });
      const done = await server.db.knex('chat_turns').where({ id: row.id }).first();
      expect(done).to.include({ status: 'SENT', guest_text: null, reply_text: null, attempts: 1, error_code: null });
      for (const at of ['generation_started_at', 'generated_at', 'send_started_at', 'sent_at', 'finished_at']) expect(done[at], at).to.be.instanceOf(Date);
      // A second run of the same job (at-least-once delivery) sends nothing more.
      expect(await run(row.id, 2).outcome).to.deep.equal({ status: 'SENT' });
      expect(manychat.requests).to.have.length(1);
    });

    it('replaces invalid internal links with the closest valid route before sending, and logs [link-audit]', async () => {
      agent.answer = () => ({
        text: 'See https://venue.example/en/shows/cabaret-nights/extra and book at https://venue.example/en/book/x',
        links: ['https://venue.example/en/shows/cabaret-nights', 'https://venue.example/en'],
        audit: { invalid: ['https://venue.example/en/shows/cabaret-nights/extra', 'https://venue.example/en/book/x'] },
      });
      const row = await queue({ text: 'cabaret?' });
      const { outcome, lines } = run(row.id);
      expect((await outcome).status).to.equal('SENT');
      const text = manychat.requests[0].body.data.content.messages[0].text;
      expect(text).to.equal('See https://venue.example/en/shows/cabaret-nights and book at https://venue.example/en');
      expect(lines.some((l) => String(l.msg).startsWith('[link-audit]'))).to.equal(true);
      expect((await server.db.knex('chat_turns').where({ id: row.id }).first()).invalid_links).to.equal(2);
    });

    it('uses the agent’s own replacement for an invalid link when its audit has one', async () => {
      agent.answer = () => ({
        text: 'Book here: https://venue.example/en/book/old-slug',
        links: [],
        audit: { invalid: ['https://venue.example/en/book/old-slug'], replacements: { 'https://venue.example/en/book/old-slug': 'https://venue.example/en/shows' } },
      });
      const row = await queue({ text: 'book?' });
      await run(row.id).outcome;
      expect(manychat.requests[0].body.data.content.messages[0].text).to.equal('Book here: https://venue.example/en/shows');
    });

    it('never sends this server’s secrets, whatever the agent wrote', async () => {
      agent.answer = () => ({ text: `token ${API_TOKEN} and ${TOKEN}`, links: [], audit: { invalid: [] } });
      const row = await queue({ text: 'leak?' });
      await run(row.id).outcome;
      const text = manychat.requests[0].body.data.content.messages[0].text;
      expect(text).to.equal('token [redacted] and [redacted]');
    });

    it('sends plain text: Markdown links, bold marks and list dashes are rewritten for the platform', async () => {
      agent.answer = () => ({
        text: 'On tonight:\n- **Saigon Chronicles**: [details](https://venue.example/en/shows/saigon-chronicles)\n- __Jazz__ https://venue.example/en/shows/jazz',
        links: ['https://venue.example/en/shows/saigon-chronicles', 'https://venue.example/en/shows/jazz'],
        audit: { invalid: [] },
      });
      const row = await queue({ text: 'tonight?' });
      await run(row.id).outcome;
      expect(manychat.requests[0].body.data.content.messages[0].text).to.equal(
        'On tonight:\n• Saigon Chronicles: details: https://venue.example/en/shows/saigon-chronicles\n• Jazz https://venue.example/en/shows/jazz',
      );
    });

    it('a retryable failure (5xx) is retried without generating again, and the answer goes out once', async () => {
      manychat.queue({ status: 503, body: { status: 'error', message: 'Service unavailable' } });
      const row = await queue({ text: 'retry me' });
      const first = run(row.id, 1);
      const err = await first.outcome.catch((e) => e);
      expect(err).to.be.instanceOf(RetryTurn);
      expect(await server.db.knex('chat_turns').where({ id: row.id }).first()).to.include({ status: 'GENERATED', error_code: 'manychat_api_error' });
      expect((await run(row.id, 2).outcome).status).to.equal('SENT');
      expect(manychat.requests).to.have.length(2);
      expect(agent.turns).to.have.length(1);
      expect(await server.db.knex('chat_turns').where({ id: row.id }).first()).to.include({ status: 'SENT', attempts: 2, reply_text: null });
    });

    it('a refused send (ManyChat error code) fails the turn, logs the code, and deletes the text', async () => {
      manychat.queue({ status: 400, body: { status: 'error', message: 'Subscriber does not exist', code: 3011 } });
      const row = await queue({ text: 'who am I' });
      const { outcome, lines } = run(row.id);
      expect(await outcome).to.deep.equal({ status: 'FAILED', errorCode: 'manychat_api_error' });
      const logged = lines.find((l) => String(l.msg).startsWith('chat platform send failed'));
      expect(logged).to.include({ manychatCode: 3011, httpStatus: 400, retryable: false });
      expect(await server.db.knex('chat_turns').where({ id: row.id }).first()).to.include({ status: 'FAILED', guest_text: null, reply_text: null });
    });

    it('a send that timed out may have arrived: it is not retried, and a run that finds a turn mid-send does not resend', async () => {
      manychat.queue({ hang: true });
      const row = await queue({ text: 'slow' });
      expect(await run(row.id, 1).outcome).to.deep.equal({ status: 'FAILED', errorCode: 'manychat_timeout' });
      const other = await queue({ text: 'crashed mid-send' }).then(async () => (await turns()).find((t) => t.status === 'QUEUED'));
      await server.db.knex('chat_turns').where({ id: other.id }).update({ status: 'SENDING', reply_text: 'half sent' });
      manychat.reset();
      expect(await run(other.id, 2).outcome).to.deep.equal({ status: 'FAILED', errorCode: 'delivery_unknown' });
      expect(manychat.requests).to.have.length(0);
      expect(await server.db.knex('chat_turns').where({ id: other.id }).first()).to.include({ reply_text: null, guest_text: null });
    });

    it('an agent error is retried while attempts remain (text kept), then fails the turn (text deleted)', async () => {
      agent.answer = () => Promise.reject(new Error('model down'));
      const row = await queue({ text: 'hello?' });
      expect(await run(row.id, 1).outcome.catch((e) => e)).to.be.instanceOf(RetryTurn);
      expect(await server.db.knex('chat_turns').where({ id: row.id }).first()).to.include({ status: 'QUEUED', guest_text: 'hello?', error_code: 'agent_error' });
      expect(await run(row.id, 4).outcome).to.deep.equal({ status: 'FAILED', errorCode: 'agent_error' });
      expect(await server.db.knex('chat_turns').where({ id: row.id }).first()).to.include({ status: 'FAILED', guest_text: null });
      expect(manychat.requests).to.have.length(0);
    });

    it('ManyChat has no typing action: its channel runs no typing loop', () => {
      const channel = manyChatChannel(manyChatFor(server.app.context));
      expect(channel.typing({ id: 'x', source: 'chat-platform', channel: 'facebook', recipient: '1', externalMessageId: null, locale: 'en', status: 'QUEUED', guestText: 'x', replyText: null, attempts: 0 })).to.equal(undefined);
    });
  });
});

describe('chatPlatform: the turn is a durable job (workers on)', () => {
  let server: TestServer;
  let manychat: FakePlatform;
  const agent = scriptedAssistant(() => ({ text: 'Doors open at 18:00.', links: [], audit: { invalid: [] } }));

  before(async () => {
    manychat = await startFakeManyChat();
    server = await startTestServer({
      config: { accessTokens: { 'chat-webhook-token': TOKEN }, chatApi: { baseUrl: manychat.url, token: API_TOKEN, timeoutMs: 2_000 } },
      jobs: { workers: true, pollingIntervalSeconds: 1 },
    });
    useAssistant(server.app.context, agent);
  });
  after(async () => {
    await server.close();
    await manychat.close();
  });

  it('acknowledges, then the job engine runs the turn and ManyChat receives the answer @db', async () => {
    const res = await server.request('POST', PATH, { headers: auth, body: { channel: 'messenger', subscriber_id: '321', last_input_text: 'When do doors open?' } });
    expect(res.status).to.equal(200);
    const [req] = await manychat.received(1, 20_000);
    expect(req.body).to.deep.equal({ subscriber_id: 321, data: { version: 'v2', content: { messages: [{ type: 'text', text: 'Doors open at 18:00.' }] } } });
    const row = await eventually(() => server.db.knex('chat_turns').first(), { until: (r) => r.status === 'SENT', timeoutMs: 5000, intervalMs: 100, orLast: true });
    expect(row).to.include({ status: 'SENT', guest_text: null });
  });
});
