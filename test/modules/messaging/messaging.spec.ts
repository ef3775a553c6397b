import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { useAssistant } from '../../../server/assistant/index.ts';
import { runTurn } from '../../../server/modules/chatPlatform/commands/runTurn.ts';
import { inboundTexts, localeOfText, whatsAppChannel, whatsAppFor } from '../../../server/modules/messaging/service.ts';
import { startFakeWhatsApp, type FakePlatform } from '../../helpers/fakeChatPlatforms.ts';
import { FakeClock } from '../../helpers/fakeClock.ts';
import { memoryLogger } from '../../helpers/mail.ts';
import { scriptedAssistant } from '../../helpers/scriptedAssistant.ts';
import { asSuperuser, startTestServer, type TestServer } from '../../helpers/server.ts';
import { catalogCallers } from '../shows/catalog.ts';

const VERIFY = 'verify-token-0123456789';
const SECRET = 'app-secret-abcdef0123456789';
const PHONE_ID = '106540352242922';
const WEBHOOK = '/api/messaging/webhook';

const notification = (messages: Array<Record<string, unknown>>, statuses: unknown[] = []) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '84901234567', phone_number_id: PHONE_ID },
            contacts: [{ profile: { name: 'Lan' }, wa_id: '84912345678' }],
            messages,
            ...(statuses.length ? { statuses } : {}),
          },
        },
      ],
    },
  ],
});
const textMessage = (id: string, body: string) => ({ from: '84912345678', id, timestamp: '1764300000', type: 'text', text: { body } });
const sign = (raw: string | Buffer) => `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`;

describe('messaging: WhatsApp webhook and template send', () => {
  let server: TestServer;
  let graph: FakePlatform;
  const agent = scriptedAssistant(() => ({ text: 'The show starts at 19:30.', links: [], audit: { invalid: [] } }));
  const turns = () => server.db.knex('chat_turns').orderBy('created_at');

  before(async () => {
    graph = await startFakeWhatsApp();
    server = await startTestServer({
      config: {
        accessTokens: { 'messaging-verify-token': VERIFY },
        messaging: { graphApiBaseUrl: `${graph.url}/v23.0`, phoneNumberId: PHONE_ID, accessToken: 'wa-access-token', appSecret: SECRET, timeoutMs: 2_000 },
      },
    });
    useAssistant(server.app.context, agent);
  });
  after(async () => {
    await server.close();
    await graph.close();
  });
  beforeEach(async () => {
    agent.reset();
    graph.reset();
    await server.db.knex('chat_turns').delete();
    await server.db.knex.raw('truncate pgboss.job');
  });

  describe('GET /api/messaging/webhook (verification)', () => {
    it('answers hub.challenge as plain text for subscribe with the verify token', async () => {
      const res = await server.request('GET', `${WEBHOOK}?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=1158201444`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(res.text).to.equal('1158201444');
    });

    it('refuses a wrong or missing token, or another mode, with 403', async () => {
      for (const query of [`hub.mode=subscribe&hub.verify_token=${VERIFY}x&hub.challenge=1`, 'hub.mode=subscribe&hub.challenge=1', `hub.mode=unsubscribe&hub.verify_token=${VERIFY}&hub.challenge=1`]) {
        const res = await server.request('GET', `${WEBHOOK}?${query}`);
        expect(res.status, query).to.equal(403);
      }
    });
  });

  describe('POST /api/messaging/webhook', () => {
    it('requires the X-Hub-Signature-256 HMAC over the raw body, compared as sent (not re-serialized)', async () => {
      // Spacing JSON.stringify would not reproduce: a signature over re-serialized JSON would not match.
      const raw = JSON.stringify(notification([textMessage('wamid.A1', 'Hello')]), null, 3);
      const missing = await server.request('POST', WEBHOOK, { rawBody: raw, headers: { 'content-type': 'application/json' } });
      expect(missing.status).to.equal(401);
      expect(missing.body.code).to.equal('invalid_signature');
      const wrong = await server.request('POST', WEBHOOK, { rawBody: raw, headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(raw + ' ') } });
      expect(wrong.status).to.equal(401);
      expect(await turns()).to.have.length(0);
      const ok = await server.request('POST', WEBHOOK, { rawBody: raw, headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(raw) } });
      expect(ok.status).to.equal(200);
      expect(ok.body).to.deep.equal({ queued: 1, duplicates: 0, ignored: 0 });
    });

    it('queues each new text once: a redelivered message id is answered once; media and statuses are ignored', async () => {
      const body = notification([textMessage('wamid.B1', 'Còn chỗ tối nay không?'), { from: '84912345678', id: 'wamid.B2', type: 'image', image: { id: 'x' } }], [{ id: 'wamid.OUT', status: 'delivered' }]);
      const raw = JSON.stringify(body);
      const headers = { 'content-type': 'application/json', 'x-hub-signature-256': sign(raw) };
      const first = await server.request('POST', WEBHOOK, { rawBody: raw, headers });
      expect(first.body).to.deep.equal({ queued: 1, duplicates: 0, ignored: 2 });
      const again = await server.request('POST', WEBHOOK, { rawBody: raw, headers });
      expect(again.body).to.deep.equal({ queued: 0, duplicates: 1, ignored: 2 });
      const rows = await turns();
      expect(rows).to.have.length(1);
      expect(rows[0]).to.include({ source: 'whatsapp', recipient: '84912345678', external_message_id: 'wamid.B1', locale: 'vi', status: 'QUEUED' });
      const jobs = (await server.db.knex.raw(`select count(*)::int as n from pgboss.job where name = 'messaging.reply'`)) as { rows: Array<{ n: number }> };
      expect(jobs.rows[0].n).to.equal(1);
    });

    it('the reply job: the typing indicator on the guest’s message, then the agent’s answer in reply to it', async () => {
      const raw = JSON.stringify(notification([textMessage('wamid.C1', 'What time does the show start?')]));
      await server.request('POST', WEBHOOK, { rawBody: raw, headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(raw) } });
      const [row] = await turns();
      const clock = new FakeClock([0]);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      agent.answer = async () => {
        await held;
        return { text: 'The show starts at 19:30.', links: [], audit: { invalid: [] } };
      };
      const { logger } = memoryLogger();
      const outcome = runTurn(server.app.context, row.id, whatsAppChannel(whatsAppFor(server.app.context)), { attempt: 1, retryLimit: 3, log: logger }, { clock });
      await agent.called();
      await clock.advance(1_000);
      await graph.received(1);
      release();
      expect((await outcome).status).to.equal('SENT');
      const [typing, reply] = graph.requests;
      expect(typing.body).to.deep.equal({ messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.C1', typing_indicator: { type: 'text' } });
      expect(reply.path).to.equal(`/v23.0/${PHONE_ID}/messages`);
      expect(reply.body).to.deep.include({ to: '84912345678', type: 'text', context: { message_id: 'wamid.C1' } });
      expect(reply.body.text.body).to.equal('The show starts at 19:30.');
      expect(graph.requests).to.have.length(2); // the Cloud API has no typing-off call: the final off sends nothing
      expect(agent.turns[0]).to.deep.include({ channel: 'whatsapp', locale: 'en' });
      expect(await server.db.knex('chat_turns').where({ id: row.id }).first()).to.include({ status: 'SENT', guest_text: null });
    });

    it('reads texts from the notification and guesses the locale from Vietnamese letters', () => {
      const { texts, ignored } = inboundTexts(notification([textMessage('wamid.D1', ' hi '), { from: 'abc', id: 'wamid.D2', type: 'text', text: { body: 'bad sender' } }]));
      expect(texts).to.deep.equal([{ from: '84912345678', id: 'wamid.D1', text: 'hi' }]);
      expect(ignored).to.equal(1);
      expect(localeOfText('Cho mình hỏi giá vé', ['en', 'vi'])).to.equal('vi');
      expect(localeOfText('Cho minh hoi', ['en', 'vi'])).to.equal('en');
    });
  });

  describe('POST /api/messaging/send (admin)', () => {
    const body = { to: '+84912345678', template: { name: 'booking_reminder', language: 'vi', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Lan' }] }] } };

    it('sends the template through the Cloud API and answers Meta’s message id', async () => {
      const res = await server.request('POST', '/api/messaging/send', { headers: asSuperuser, body });
      expect(res.status).to.equal(200);
      expect(res.body.messageId).to.match(/^wamid\./);
      expect(res.body.waId).to.equal('84912345678');
      const [req] = graph.requests;
      expect(req.body).to.deep.equal({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '84912345678',
        type: 'template',
        template: { name: 'booking_reminder', language: { code: 'vi' }, components: body.template.components },
      });
    });

    it('returns Meta’s refusal as problem+json: 422 for its 4xx, 502 for its 5xx', async () => {
      graph.queue({ status: 400, body: { error: { message: 'Template name does not exist in the translation', type: 'OAuthException', code: 132001, fbtrace_id: 'AbCdEf' } } });
      const refused = await server.request('POST', '/api/messaging/send', { headers: asSuperuser, body });
      expect(refused.status).to.equal(422);
      expect(refused.headers.get('content-type')).to.match(/problem\+json/);
      expect(refused.body.code).to.equal('messaging_rejected');
      expect(refused.body.detail).to.include('132001').and.include('Template name does not exist').and.include('AbCdEf');
      graph.queue({ status: 500, body: { error: { message: 'Service temporarily unavailable', code: 2 } } });
      const down = await server.request('POST', '/api/messaging/send', { headers: asSuperuser, body });
      expect(down.status).to.equal(502);
      expect(down.body.code).to.equal('messaging_unavailable');
    });

    it('is admin only, and validates the number and template', async () => {
      const callers = await catalogCallers();
      const denied = await server.request('POST', '/api/messaging/send', { headers: callers.staff, body });
      expect(denied.status).to.equal(403);
      const anonymous = await server.request('POST', '/api/messaging/send', { body });
      expect(anonymous.status).to.equal(401);
      graph.reset();
      const admin = await server.request('POST', '/api/messaging/send', { headers: callers.admin, body });
      expect(admin.status).to.equal(200);
      graph.reset();
      const bad = await server.request('POST', '/api/messaging/send', { headers: asSuperuser, body: { to: 'call me', template: { name: 'Bad Name', language: 'vi' } } });
      expect(bad.status).to.equal(400);
      expect(graph.requests).to.have.length(0);
    });
  });
});
