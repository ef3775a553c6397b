import { agentFor, assistantFor } from '../../assistant/index.ts';
import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json, stream } from '../../platform/http/handler.ts';
import { NotFound, Unprocessable } from '../../platform/http/problem.ts';
import { abortOnDisconnect, conversationOf, endsWithQuestion, noteAddressOf, sse, throttleTurn, traceIdOf, turnLocale } from './service.ts';

/** RFC 9745: the legacy chat route has been deprecated since `/llm/chat` took over the website chat. */
const LEGACY_DEPRECATED_AT = Date.UTC(2026, 10, 1) / 1000;

const NoQuestion = () =>
  Unprocessable('no_question', 'The conversation must end with a message of the guest holding text.', [
    { path: 'body/messages', message: 'the last message must be a user message with text', code: 'no_question' },
  ]);

export const handlers = {
  async chatWithAssistant(call) {
    await throttleTurn(call);
    const messages = await conversationOf(call.body.messages);
    if (!endsWithQuestion(messages)) throw NoQuestion();
    noteAddressOf(call);
    const turn = { messages, locale: turnLocale(call.app, call.body.locale), channel: 'web' as const, abortSignal: abortOnDisconnect(call), traceId: traceIdOf(call) };
    const headers: Record<string, string> = { 'x-vercel-ai-ui-message-stream': 'v1' };
    // Spec §5.6: `/llm/chat` answers any origin, and `*` when the request names none (the CORS layer echoes one).
    if (!call.header('origin')) headers['Access-Control-Allow-Origin'] = '*';
    const agent = await agentFor(call.app);
    return stream(await sse(agent.streamUi(turn)), 'text/event-stream', { headers });
  },

  async askAssistantDemo(call) {
    const prompt = call.body.prompt.trim();
    if (!prompt) {
      throw Unprocessable('no_question', 'The prompt holds no text.', [{ path: 'body/prompt', message: 'must hold text other than white space', code: 'no_question' }]);
    }
    await throttleTurn(call);
    noteAddressOf(call);
    const history = (call.body.history ?? []).flatMap((message) => (message.text.trim() ? [{ role: message.role, text: message.text.trim() }] : []));
    const messages = [...history, { role: 'user' as const, text: prompt }];
    const reply = await (await assistantFor(call.app)).reply({ messages, locale: turnLocale(call.app, call.body.locale), channel: 'demo', traceId: traceIdOf(call) });
    return json(200, { text: reply.text, links: reply.links, invalidLinks: reply.audit.invalid });
  },

  async streamLegacyCustomerSupport(call) {
    await throttleTurn(call);
    const messages = call.body.messages.flatMap((message) =>
      message.role === 'system' || !message.content.trim() ? [] : [{ role: message.role, text: message.content.trim() }],
    );
    if (!endsWithQuestion(messages)) throw NoQuestion();
    noteAddressOf(call);
    const turn = { messages, locale: turnLocale(call.app, call.body.locale), channel: 'web' as const, abortSignal: abortOnDisconnect(call), traceId: traceIdOf(call) };
    const text = (await agentFor(call.app)).streamPlainText(turn).pipeThrough(new TextEncoderStream());
    return stream(text, 'text/plain; charset=utf-8', {
      headers: { Deprecation: `@${LEGACY_DEPRECATED_AT}`, Link: '</llm/chat>; rel="successor-version"', 'Cache-Control': 'no-cache' },
    });
  },

  // `/api/agentruntime/*` is declared `disabled` (spec §4.1): never mounted, so the router answers 404 before
  // any handler runs. These keep the contract's operation map complete and would answer the same 404.
  getAgentRuntime() {
    throw NotFound();
  },
  postAgentRuntime() {
    throw NotFound();
  },
} satisfies Partial<OperationHandlers>;
