import { expect } from 'chai';
import { agentFor } from '../../../server/assistant/index.ts';
import { loadConfig } from '../../../server/platform/config.ts';
import { startFakeMistral } from '../../helpers/fakeMistral.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { sseChunks, streamedText, userMessage } from './helpers.ts';

/**
 * With MISTRAL_API_KEY the agent drives Mistral through @ai-sdk/mistral (MISTRAL_BASE_URL pointing at a local
 * fake speaking its streaming chat-completions format): the tools are offered, a tool call round runs the tool
 * against the assistant-safe route, and the model's final text is streamed and audited.
 */
const SITE = 'https://venue.example';

describe('assistant with Mistral (fake chat-completions server)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let mistral: Awaited<ReturnType<typeof startFakeMistral>>;

  before(async () => {
    mistral = await startFakeMistral([
      { toolCalls: [{ id: 'a1b2c3d4e', name: 'getSiteRoutes', arguments: {} }] },
      { text: `You can see every show here: [our shows](${SITE}/en/shows).` },
    ]);
    server = await startTestServer({
      config: { publicSiteUrl: SITE, assistantModel: 'mistral', mistralApiKey: 'test-mistral-key', mistralModel: 'mistral-small-latest', mistralBaseUrl: mistral.url },
    });
  });
  after(async () => {
    await server?.close();
    await mistral?.close();
  });

  it('chooses Mistral with a key, the offline model without one, and ASSISTANT_MODEL forces one', async () => {
    expect(loadConfig({ MISTRAL_API_KEY: 'k' }).assistantModel).to.equal('mistral');
    expect(loadConfig({}).assistantModel).to.equal('offline');
    expect(loadConfig({ MISTRAL_API_KEY: 'k', ASSISTANT_MODEL: 'offline' }).assistantModel).to.equal('offline');
    expect(() => loadConfig({ ASSISTANT_MODEL: 'mistral' })).to.throw(/MISTRAL_API_KEY/);
    expect(loadConfig({}).mistralModel).to.equal('mistral-small-latest');
    expect((await agentFor(server.app.context)).modelName).to.equal('mistral.chat:mistral-small-latest');
  });

  it('runs a tool call round against the assistant-safe route, then streams the answer', async () => {
    const before = server.logs.length;
    const res = await fetch(`${server.baseUrl}/llm/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ locale: 'en', messages: [userMessage('What shows do you have?')] }) });
    const { chunks, done } = sseChunks(await res.text());
    expect(done).to.equal(true);
    expect(streamedText(chunks)).to.equal(`You can see every show here: [our shows](${SITE}/en/shows).`);
    expect(chunks.find((chunk) => chunk.type === 'tool-input-available')).to.deep.include({ toolName: 'getSiteRoutes' });
    expect(chunks.find((chunk) => chunk.type === 'data-link-audit')!.data).to.deep.equal({ checked: 1, invalid: [] });

    expect(mistral.requests).to.have.length(2);
    const [first, second] = mistral.requests;
    expect(first.headers.authorization).to.equal('Bearer test-mistral-key');
    expect(first.body).to.deep.include({ model: 'mistral-small-latest', stream: true });
    expect(first.body.tools.map((tool: any) => tool.function.name)).to.include.members(['listShows', 'listEvents', 'checkAvailability', 'getBookingOptions', 'getSiteRoutes', 'searchKnowledge']);
    expect(first.body.messages[0].role).to.equal('system');
    expect(first.body.messages.at(-1)).to.deep.include({ role: 'user' });
    // The second request carries the tool's result, read from the route over HTTP.
    const toolMessage = second.body.messages.find((message: any) => message.role === 'tool');
    expect(toolMessage.tool_call_id).to.equal('a1b2c3d4e');
    expect(JSON.parse(toolMessage.content).pages.shows).to.equal(`${SITE}/en/shows`);
    const paths = server.logs.slice(before).filter((line) => line.msg === 'request').map((line) => line.path);
    expect(paths).to.include('/api/ai/customer-support/catalog/routes');
  });
});
