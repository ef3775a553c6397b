import { expect } from 'chai';
import { createManyChatClient, dynamicBlock, ManyChatError, splitText } from '../../server/platform/integrations/manychat.ts';
import { createWhatsAppClient, WhatsAppError } from '../../server/platform/integrations/whatsapp.ts';
import { startFakeManyChat, startFakeWhatsApp, type FakePlatform } from '../helpers/fakeChatPlatforms.ts';
import { closedPortUrl } from '../helpers/fakePeer.ts';

describe('integrations: ManyChat client (sendContent)', () => {
  let fake: FakePlatform;
  before(async () => {
    fake = await startFakeManyChat();
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  const client = (extra: Partial<Parameters<typeof createManyChatClient>[0]> = {}) =>
    createManyChatClient({ baseUrl: fake.url, token: 'mc-token-123456', timeoutMs: 2_000, ...extra });

  it('builds Dynamic Block v2 bodies, with content.type only for instagram, whatsapp and telegram', () => {
    expect(dynamicBlock('facebook', 'Hi')).to.deep.equal({ version: 'v2', content: { messages: [{ type: 'text', text: 'Hi' }] } });
    expect(dynamicBlock('messenger', 'Hi').content).to.not.have.property('type');
    for (const channel of ['instagram', 'whatsapp', 'telegram'] as const) expect(dynamicBlock(channel, 'Hi').content.type).to.equal(channel);
  });

  it('splits a long answer into messages of at most 2,000 characters, at word breaks', () => {
    const words = Array.from({ length: 900 }, (_, i) => `word${i}`).join(' ');
    const parts = splitText(words, 2000);
    expect(parts.length).to.be.greaterThan(1);
    for (const part of parts) expect(part.length).to.be.at.most(2000);
    expect(parts.join(' ')).to.equal(words);
    expect(dynamicBlock('facebook', words).content.messages.length).to.equal(parts.length);
  });

  it('POSTs /fb/sending/sendContent with the Bearer token and { subscriber_id, data }', async () => {
    await client().sendContent('1234567890', dynamicBlock('instagram', 'Hello'));
    const [req] = await fake.received(1);
    expect(req.method).to.equal('POST');
    expect(req.path).to.equal('/fb/sending/sendContent');
    expect(req.headers.authorization).to.equal('Bearer mc-token-123456');
    expect(req.body).to.deep.equal({ subscriber_id: 1234567890, data: { version: 'v2', content: { type: 'instagram', messages: [{ type: 'text', text: 'Hello' }] } } });
  });

  it('keeps ManyChat’s error code and message; 4xx is not retryable, 429 and 5xx are', async () => {
    fake.queue({ status: 400, body: { status: 'error', message: 'Subscriber does not exist', code: 3011 } });
    const refused = await client().sendContent('1', dynamicBlock('facebook', 'x')).catch((e) => e);
    expect(refused).to.be.instanceOf(ManyChatError);
    expect(refused).to.include({ code: 'api_error', status: 400, apiCode: 3011, retryable: false, delivery: 'not_delivered' });
    fake.queue({ status: 429, body: { status: 'error', message: 'Too many requests' } }, { status: 502, body: 'bad gateway' });
    expect(await client().sendContent('1', dynamicBlock('facebook', 'x')).catch((e) => e)).to.include({ retryable: true, status: 429 });
    expect(await client().sendContent('1', dynamicBlock('facebook', 'x')).catch((e) => e)).to.include({ code: 'http_status', retryable: true, status: 502 });
    fake.queue({ status: 200, body: { status: 'error', message: 'Validation error', details: {} } });
    expect(await client().sendContent('1', dynamicBlock('facebook', 'x')).catch((e) => e)).to.include({ code: 'api_error', retryable: false });
  });

  it('a time-out may have been delivered: not retryable; a refused connection certainly was not: retryable', async () => {
    fake.queue({ hang: true });
    const late = await client({ timeoutMs: 200 }).sendContent('1', dynamicBlock('facebook', 'x')).catch((e) => e);
    expect(late).to.include({ code: 'timeout', delivery: 'unknown', retryable: false });
    const closed = await createManyChatClient({ baseUrl: await closedPortUrl(), token: 't', timeoutMs: 2_000 }).sendContent('1', dynamicBlock('facebook', 'x')).catch((e) => e);
    expect(closed).to.include({ code: 'network', delivery: 'not_delivered', retryable: true });
  });

  it('without CHAT_API_TOKEN it sends nothing and says not_configured', async () => {
    const unconfigured = createManyChatClient({ baseUrl: fake.url, token: undefined, timeoutMs: 1_000 });
    expect(unconfigured.isConfigured).to.equal(false);
    expect(await unconfigured.sendContent('1', dynamicBlock('facebook', 'x')).catch((e) => e)).to.include({ code: 'not_configured' });
    expect(fake.requests).to.have.length(0);
  });
});

describe('integrations: WhatsApp Cloud API client', () => {
  let fake: FakePlatform;
  before(async () => {
    fake = await startFakeWhatsApp();
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  const client = () => createWhatsAppClient({ baseUrl: `${fake.url}/v23.0`, phoneNumberId: '106540352242922', accessToken: 'wa-access-token', timeoutMs: 2_000 });

  it('sends a text in reply to the guest’s message', async () => {
    const sent = await client().sendText('84912345678', 'Hello', { replyTo: 'wamid.IN1' });
    const [req] = await fake.received(1);
    expect(req.path).to.equal('/v23.0/106540352242922/messages');
    expect(req.headers.authorization).to.equal('Bearer wa-access-token');
    expect(req.body).to.deep.equal({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '84912345678',
      type: 'text',
      context: { message_id: 'wamid.IN1' },
      text: { preview_url: true, body: 'Hello' },
    });
    expect(sent.messageId).to.match(/^wamid\./);
  });

  it('shows the typing indicator on a message (read + typing_indicator) and sends templates', async () => {
    await client().typing('wamid.IN2');
    await client().sendTemplate('84912345678', { name: 'booking_reminder', language: 'vi', components: [{ type: 'body', parameters: [] }] });
    const [typing, template] = await fake.received(2);
    expect(typing.body).to.deep.equal({ messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.IN2', typing_indicator: { type: 'text' } });
    expect(template.body.template).to.deep.equal({ name: 'booking_reminder', language: { code: 'vi' }, components: [{ type: 'body', parameters: [] }] });
  });

  it('keeps Meta’s error object; rate limits and 5xx are retryable, a refused template is not', async () => {
    fake.queue({ status: 400, body: { error: { message: 'Template name does not exist in the translation', type: 'OAuthException', code: 132001, fbtrace_id: 'AbC' } } });
    const refused = await client().sendTemplate('84912345678', { name: 'nope', language: 'en' }).catch((e) => e);
    expect(refused).to.be.instanceOf(WhatsAppError);
    expect(refused).to.include({ code: 'api_error', status: 400, retryable: false });
    expect(refused.graph).to.include({ code: 132001, fbtrace_id: 'AbC' });
    fake.queue({ status: 400, body: { error: { message: 'Rate limit hit', code: 130429 } } });
    expect(await client().sendText('84912345678', 'x').catch((e) => e)).to.include({ retryable: true });
    const unconfigured = createWhatsAppClient({ baseUrl: fake.url, phoneNumberId: undefined, accessToken: 't', timeoutMs: 1_000 });
    expect(await unconfigured.sendText('1', 'x').catch((e) => e)).to.include({ code: 'not_configured' });
  });
});
