import fs from 'node:fs';
import path from 'node:path';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { expect } from 'chai';
import { DEMO_KNOWLEDGE, DEMO_OFFERS, DEMO_SHOWS } from '../../../seed/index.ts';
import { createAgent } from '../../../server/assistant/agent.ts';
import { assistantApiBaseUrl } from '../../../server/assistant/address.ts';
import { repairLinks, useAgent } from '../../../server/assistant/index.ts';
import { capturedEvents, startFakePostHog, type FakePostHog } from '../../helpers/fakePosthog.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { sseChunks, streamedText, userMessage } from './helpers.ts';

/**
 * The agent's machinery with the AI SDK's mock model (a fixed script): the link audit and its data part, abort
 * on disconnect, the per-address limit, `$ai_generation` under both switches; and the rules on the code itself
 * (no database imports, no venue facts).
 */
const SITE = 'https://venue.example';

const usage = { inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 7, text: 7, reasoning: undefined } };

/** A model that answers `text` in one step. */
function scripted(text: string) {
  return new MockLanguageModelV3({
    modelId: 'scripted',
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't' });
          controller.enqueue({ type: 'text-delta', id: 't', delta: text });
          controller.enqueue({ type: 'text-end', id: 't' });
          controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
          controller.close();
        },
      }),
    }),
    doGenerate: async () => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }),
  });
}

function agentOn(server: TestServer, model: MockLanguageModelV3) {
  const app = server.app.context;
  const agent = createAgent({ config: app.config, logger: app.logger, analytics: app.analytics, baseUrl: () => assistantApiBaseUrl(app, app.config), model });
  useAgent(app, agent);
  return agent;
}

const chat = (server: TestServer, text: string, init: RequestInit = {}) =>
  fetch(`${server.baseUrl}/llm/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [userMessage(text)] }), ...init });

describe('assistant agent: link audit, abort, limits, observability (mock model)', function () {
  this.timeout(60_000);

  describe('with a plain server', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ config: { publicSiteUrl: SITE, llmChatRateLimitPerMinute: 1000 } });
    });
    after(() => server?.close());

    it('audits the answer’s internal links against the route data: a final data part, a [link-audit] log, the count', async () => {
      const agent = agentOn(server, scripted(`See [our shows](${SITE}/en/shows), [a secret page](${SITE}/en/backstage) and [elsewhere](https://maps.example/x).`));
      const { chunks } = sseChunks(await (await chat(server, 'links please')).text());
      expect(streamedText(chunks)).to.include('/en/backstage');
      const audit = chunks.find((chunk) => chunk.type === 'data-link-audit')!;
      expect(audit.data).to.deep.equal({ checked: 2, invalid: [`${SITE}/en/backstage`] });
      expect(chunks.indexOf(audit)).to.equal(chunks.length - 2);
      expect(server.logs.some((line) => String(line.msg).startsWith('[link-audit]') && line.invalid?.[0] === `${SITE}/en/backstage`)).to.equal(true);
      expect(agent.linkAudits.invalid).to.equal(1);
      // The demo route reports the same audit as `invalidLinks`, and links only the valid ones.
      const demo = await server.request('POST', '/api/ai/demo', { body: { prompt: 'links please' } });
      expect(demo.body).to.deep.include({ links: [`${SITE}/en/shows`], invalidLinks: [`${SITE}/en/backstage`] });
      // Chat platforms replace an invalid link by the closest route (here the locale's home).
      const reply = await agent.reply({ messages: [{ role: 'user', text: 'links please' }], locale: 'en', channel: 'whatsapp' });
      expect(reply.audit.replacements).to.deep.equal({ [`${SITE}/en/backstage`]: `${SITE}/en` });
      expect(repairLinks(reply.text, reply.audit)).to.include(`(${SITE}/en)`).and.not.include('backstage');
      expect(agent.linkAudits.invalid).to.equal(3);
    });

    it('a client that disconnects aborts generation', async () => {
      let seen: AbortSignal | undefined;
      const aborted = new Promise<void>((resolve) => {
        agentOn(
          server,
          new MockLanguageModelV3({
            doStream: async (options) => {
              seen = options.abortSignal;
              options.abortSignal?.addEventListener('abort', () => resolve());
              return {
                stream: new ReadableStream<LanguageModelV3StreamPart>({
                  start(controller) {
                    controller.enqueue({ type: 'stream-start', warnings: [] });
                    controller.enqueue({ type: 'text-start', id: 't' });
                    controller.enqueue({ type: 'text-delta', id: 't', delta: 'Thinking' });
                    options.abortSignal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
                  },
                }),
              };
            },
          }),
        );
      });
      const client = new AbortController();
      const res = await chat(server, 'a slow one', { signal: client.signal });
      const reader = res.body!.getReader();
      await reader.read();
      client.abort();
      await aborted;
      expect(seen?.aborted).to.equal(true);
    });

    it('the disabled runtime stays unmounted, whatever the caller', async () => {
      expect((await server.request('POST', '/api/agentruntime/x', { body: {} })).status).to.equal(404);
    });
  });

  it('limits turns per client address (429 with Retry-After)', async () => {
    const server = await startTestServer({ config: { publicSiteUrl: SITE, llmChatRateLimitPerMinute: 2 } });
    try {
      agentOn(server, scripted('Hello.'));
      expect((await chat(server, 'one')).status).to.equal(200);
      expect((await server.request('POST', '/api/ai/demo', { body: { prompt: 'two' } })).status).to.equal(200);
      const third = await server.request('POST', '/llm/chat', { body: { messages: [userMessage('three')] } });
      expect(third.status).to.equal(429);
      expect(third.headers.get('retry-after')).to.match(/^\d+$/);
    } finally {
      await server.close();
    }
  });

  describe('$ai_generation (spec §6.5)', () => {
    let posthog: FakePostHog;
    before(async () => {
      posthog = await startFakePostHog();
    });
    after(() => posthog?.close());

    async function generationsWith(config: { aiObservabilityEnabled: boolean; aiObservabilityCaptureContent: boolean }) {
      const server = await startTestServer({ config: { publicSiteUrl: SITE, analyticsEnabled: true, posthogApiKey: 'phc_test', posthogHost: posthog.url, ...config } });
      try {
        agentOn(server, scripted('The answer.'));
        await (await chat(server, 'the question')).text();
        await server.request('POST', '/api/ai/demo', { body: { prompt: 'another question' } });
        await server.app.context.analytics.flush();
        return capturedEvents(posthog.requests.splice(0)).filter((event) => event.event === '$ai_generation');
      } finally {
        await server.close();
      }
    }

    it('off by default: nothing is sent', async () => {
      expect(await generationsWith({ aiObservabilityEnabled: false, aiObservabilityCaptureContent: false })).to.deep.equal([]);
    });

    it('on: trace id, model, provider, tokens, latency, stream flag, error — without content', async () => {
      const events = await generationsWith({ aiObservabilityEnabled: true, aiObservabilityCaptureContent: false });
      expect(events).to.have.length(2);
      const [streamed, plain] = events.map((event) => event.properties);
      expect(streamed).to.include({ $ai_model: 'scripted', $ai_provider: 'mock-provider', $ai_input_tokens: 12, $ai_output_tokens: 7, $ai_stream: true, $ai_is_error: false });
      expect(plain.$ai_stream).to.equal(false);
      expect(streamed.$ai_trace_id).to.be.a('string').and.not.equal(plain.$ai_trace_id);
      expect(streamed.$ai_latency).to.be.a('number');
      for (const properties of [streamed, plain]) {
        expect(properties).not.to.have.any.keys('$ai_input', '$ai_output_choices');
        expect(JSON.stringify(properties)).not.to.include('question').and.not.to.include('The answer');
      }
    });

    it('content only with ANALYTICS_AI_OBSERVABILITY_CAPTURE_CONTENT=true', async () => {
      const [streamed] = (await generationsWith({ aiObservabilityEnabled: true, aiObservabilityCaptureContent: true })).map((event) => event.properties);
      expect(streamed.$ai_input).to.deep.equal([{ role: 'user', content: 'the question' }]);
      expect(streamed.$ai_output_choices).to.deep.equal([{ role: 'assistant', content: 'The answer.' }]);
    });
  });

  describe('the code itself', () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const files = (dir: string): string[] =>
      fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(path.join(dir, entry.name)) : entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : []));

    it('server/assistant/** imports no database code, directly or through what it imports', () => {
      const forbidden = [/^knex/, /^objection/, /^pg$/, /^@electric-sql\/pglite/, /^knex-pglite/, /^pg-boss/];
      const forbiddenDirs = [path.join(root, 'server/db'), path.join(root, 'server/modules'), path.join(root, 'server/jobs')];
      const seen = new Set<string>();
      const walk = (file: string, chain: string[]) => {
        if (seen.has(file)) return;
        seen.add(file);
        const source = fs.readFileSync(file, 'utf8');
        // Value imports only: `import type` and `export type` vanish at run time.
        for (const match of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
          const target = match[1];
          const here = [...chain, path.relative(root, file)];
          if (target.startsWith('.')) {
            const resolved = path.resolve(path.dirname(file), target);
            expect(forbiddenDirs.some((dir) => resolved.startsWith(dir)), `${here.join(' → ')} → ${target}`).to.equal(false);
            walk(resolved, here);
          } else {
            expect(forbidden.some((pattern) => pattern.test(target)), `${here.join(' → ')} → ${target}`).to.equal(false);
          }
        }
      };
      const entries = files('server/assistant').map((file) => path.join(root, file));
      expect(entries.length).to.be.greaterThan(5);
      for (const file of entries) walk(file, []);
    });

    it('no show name, slug, price, offer, time or policy of the demo venue is written in the chat code or prompts', () => {
      const facts = new Set<string>();
      for (const show of DEMO_SHOWS) {
        for (const text of [show.title.en, show.title.vi, show.slug, show.summary.en, show.description.en]) facts.add(text);
        for (const time of show.schedule.times) facts.add(time);
      }
      for (const offer of DEMO_OFFERS) {
        // A name that is just its booking path's words ("Private event" for PRIVATE_EVENT) is a category, not a fact.
        if (offer.name.en.toLowerCase() !== offer.bookingPath.toLowerCase().replace(/_/g, ' ')) facts.add(offer.name.en).add(offer.name.vi);
        facts.add(offer.description.en);
        const price = offer.pricePerGuestVnd;
        for (const written of [String(price), price.toLocaleString('en-US'), price.toLocaleString('vi-VN'), String(price / 1000) + 'k']) facts.add(written);
      }
      // Policy: the published knowledge's titles and opening lines.
      for (const doc of DEMO_KNOWLEDGE) facts.add(doc.body.split('\n')[0].slice(0, 40));
      const code = [...files('server/assistant'), ...files('server/modules/assistant')];
      for (const file of code) {
        const source = fs.readFileSync(path.join(root, file), 'utf8').toLowerCase();
        for (const fact of facts) expect(source.includes(fact.toLowerCase()), `${file} holds "${fact}"`).to.equal(false);
      }
    });
  });
});
