import { expect } from 'chai';
import { manyChatChannel, manyChatFor } from '../../../server/modules/chatPlatform/service.ts';
import { runTurn } from '../../../server/modules/chatPlatform/commands/runTurn.ts';
import { startFakeManyChat, type FakePlatform } from '../../helpers/fakeChatPlatforms.ts';
import { memoryLogger } from '../../helpers/mail.ts';
import type { TestServer } from '../../helpers/server.ts';
import { SITE, startAssistantServer } from '../assistant/demoVenue.ts';

const TOKEN = 'chat-webhook-token-real-agent-01';
const auth = { 'x-svc-chat-token': TOKEN };

/** Venue links of a text: every URL on the public site's origin. */
const venueLinks = (text: string) => [...text.matchAll(/https?:\/\/[^\s)\]]+/g)].map((m) => m[0].replace(/[.,;:!?]+$/, '')).filter((url) => url.startsWith(SITE));

/**
 * The chat-platform webhook with the real agent (the grounded offline model, its tools over HTTP to the
 * assistant-safe endpoints of this server), over the demo venue and its knowledge.
 */
describe('chatPlatform: with the real assistant (offline model, demo venue)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let manychat: FakePlatform;

  before(async () => {
    manychat = await startFakeManyChat();
    server = await startAssistantServer({ accessTokens: { 'chat-webhook-token': TOKEN }, chatApi: { baseUrl: manychat.url, token: 'mc-token-real', timeoutMs: 5_000 } });
  });
  after(async () => {
    await server?.close();
    await manychat.close();
  });

  it('without a subscriber id: answers the guest’s question in the v2 block, links locale-prefixed public routes only', async () => {
    const res = await server.request('POST', '/llm/chat-platform', { headers: auth, body: { channel: 'messenger', locale: 'en', last_input_text: 'What shows are on?' } });
    expect(res.status).to.equal(200);
    expect(res.body.version).to.equal('v2');
    const text: string = res.body.content.messages.map((m: { text: string }) => m.text).join('\n');
    expect(text.trim().length).to.be.greaterThan(20);
    for (const link of venueLinks(text)) expect(link.startsWith(`${SITE}/en`), link).to.equal(true);
  });

  it('with a subscriber id: acknowledges in Vietnamese, then the turn sends the agent’s Vietnamese answer through sendContent', async () => {
    const res = await server.request('POST', '/llm/chat-platform', { headers: auth, body: { channel: 'instagram', locale: 'vi_VN', subscriber_id: 99887766, last_input_text: 'Có chỗ gửi xe không?' } });
    expect(res.status).to.equal(200);
    expect(res.body.content).to.include({ type: 'instagram' });
    const row = await server.db.knex('chat_turns').where({ recipient: '99887766' }).first();
    const { logger } = memoryLogger();
    const outcome = await runTurn(server.app.context, row.id, manyChatChannel(manyChatFor(server.app.context)), { attempt: 1, retryLimit: 3, log: logger });
    expect(outcome.status).to.equal('SENT');
    const [req] = await manychat.received(1);
    expect(req.body.subscriber_id).to.equal(99887766);
    const text: string = req.body.data.content.messages.map((m: { text: string }) => m.text).join('\n');
    expect(text.trim().length).to.be.greaterThan(10);
    for (const link of venueLinks(text)) expect(link.startsWith(`${SITE}/vi`), link).to.equal(true);
    expect(await server.db.knex('chat_turns').where({ id: row.id }).first()).to.include({ status: 'SENT', guest_text: null });
  });
});
