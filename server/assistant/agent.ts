import { randomUUID } from 'node:crypto';
import { createUIMessageStream, generateText, stepCountIs, streamText, type LanguageModel, type ModelMessage, type UIMessageChunk } from 'ai';
import { DateTime } from 'luxon';
import type { Config } from '../platform/config.ts';
import type { Analytics } from '../platform/integrations/analytics.ts';
import type { Logger } from '../platform/logger.ts';
import { readRoutes, type RouteFacts } from './facts.ts';
import { auditLinks, siteOrigins, type LinkAuditResult } from './linkAudit.ts';
import { linkGuard, mayHoldLink, removeForeignLinks } from './linkGuard.ts';
import { createModel, type ModelConfig } from './models.ts';
import { recordGeneration } from './observability.ts';
import { messageLanguage } from './offline/understand.ts';
import { systemPrompt } from './prompts.ts';
import { createTools } from './tools.ts';
import type { Assistant, AssistantReply, AssistantTurn } from './types.ts';
import { createVenueData, type VenueData } from './venueData.ts';

/**
 * The agent: one for the whole app, used by every entry point (the website stream, the demo route, the legacy
 * route, the chat-platform and WhatsApp turns). A turn is one AI SDK tool loop (`streamText` / `generateText`
 * with the tools and a step limit) over the configured model; then the link audit of the answer against the
 * route data (spec §4.1) and one `$ai_generation` event when observability is on (spec §6.5).
 */
export type AgentConfig = ModelConfig &
  Pick<Config, 'assistantMaxSteps' | 'assistantApiTimeoutMs' | 'siteLocales' | 'aiObservabilityEnabled' | 'aiObservabilityCaptureContent'>;

export interface AgentDeps {
  config: AgentConfig;
  logger: Logger;
  analytics: Analytics;
  /** The assistant-safe endpoints' base URL (resolved per call). */
  baseUrl: () => string;
  /** Replaces the configured model (tests: the SDK's mock model). */
  model?: LanguageModel;
  /** The fetch of the tools' HTTP calls and of the hosted model's client (Mistral, OpenAI-compatible). */
  fetch?: typeof fetch;
}

/** Link-audit totals since the agent was made (spec §4.1: violations are counted). */
export interface LinkAuditCounts {
  turns: number;
  checked: number;
  invalid: number;
  /** Links to other sites removed from answers by the link guard. */
  foreignRemoved: number;
}

export interface AgentStream {
  /** AI SDK UI message chunks: the answer, then a transient `data-link-audit` part, then `finish`. */
  ui: ReadableStream<UIMessageChunk>;
}

export interface Agent extends Assistant {
  /** The turn as a UI message stream (the website chat). */
  streamUi(turn: AssistantTurn): ReadableStream<UIMessageChunk>;
  /** The turn as plain text chunks (the legacy route). */
  streamPlainText(turn: AssistantTurn): ReadableStream<string>;
  readonly linkAudits: LinkAuditCounts;
  readonly modelName: string;
}

const MAX_HISTORY = 20;

/** Tool results as the AI SDK hands them back after a turn (the parts of them the audit reads). */
interface ToolOutput {
  toolName: string;
  output: unknown;
}

export function createAgent(deps: AgentDeps): Agent {
  const { config, logger, analytics } = deps;
  const model = deps.model ?? createModel(config, { fetch: deps.fetch });
  const modelId = typeof model === 'string' ? model : model.modelId;
  const provider = typeof model === 'string' ? 'gateway' : model.provider;
  const data: VenueData = createVenueData({ baseUrl: deps.baseUrl, timeoutMs: config.assistantApiTimeoutMs, fetch: deps.fetch });
  const linkAudits: LinkAuditCounts = { turns: 0, checked: 0, invalid: 0, foreignRemoved: 0 };
  const log = logger.child({ component: 'assistant' });

  function prepare(turn: AssistantTurn) {
    const traceId = turn.traceId ?? randomUUID();
    const locale = answerLocale(turn, config);
    const markdown = turn.channel === 'web' || turn.channel === 'demo';
    const now = DateTime.now().setZone(config.venueTimezone);
    const messages = modelMessages(turn.messages.slice(-MAX_HISTORY));
    const settings = {
      model,
      system: systemPrompt({ locale, today: now.toISODate()!, weekday: now.setLocale('en').toFormat('cccc'), timezone: config.venueTimezone, markdown }),
      messages,
      tools: createTools(data, locale),
      stopWhen: stepCountIs(config.assistantMaxSteps),
      abortSignal: turn.abortSignal,
      providerOptions: { offline: { locale, markdown } },
      maxRetries: 1,
    };
    return { traceId, locale, settings, startedAt: performance.now() };
  }

  /** The public site's origins in the route data: the only place an answer may link to. */
  async function originsFor(locale: string): Promise<Set<string>> {
    return siteOrigins(readRoutes(await data.routes(locale)));
  }

  function removed(traceId: string, turn: AssistantTurn, url: string) {
    linkAudits.foreignRemoved += 1;
    log.warn({ traceId, channel: turn.channel, url }, '[link-guard] a link outside the public site was removed from the answer');
  }

  /** The route data an answer's links are checked against: `catalog/routes` plus the URLs of the tool results. */
  async function routeData(locale: string, outputs: ToolOutput[]): Promise<RouteFacts> {
    const fromTools = outputs.find((output) => output.toolName === 'getSiteRoutes')?.output;
    const routes = readRoutes(fromTools ?? (await data.routes(locale)));
    const more = readRoutes(outputs.filter((output) => output.toolName !== 'getSiteRoutes' && output.toolName !== 'searchKnowledge').map((output) => output.output));
    routes.all = [...new Set([...routes.all, ...more.all])];
    Object.assign(routes.showUrls, more.showUrls, { ...routes.showUrls });
    Object.assign(routes.bookingUrls, more.bookingUrls, { ...routes.bookingUrls });
    return routes;
  }

  async function audit(traceId: string, turn: AssistantTurn, locale: string, text: string, outputs: ToolOutput[]): Promise<LinkAuditResult> {
    let routes: RouteFacts;
    try {
      // No link in the text: nothing to check, no route data needed.
      routes = /https?:\/\/|\]\(\//.test(text) ? await routeData(locale, outputs) : { named: {}, showUrls: {}, bookingUrls: {}, all: [] };
    } catch (err) {
      // Without route data no internal link can be vouched for: every link of the text is reported.
      log.warn({ traceId, err: (err as Error).message }, '[link-audit] route data unavailable; every link is reported');
      routes = { named: {}, showUrls: {}, bookingUrls: {}, all: [] };
      const result = auditLinks(text, routes);
      const invalid = [...new Set([...result.invalid, ...(text.match(/https?:\/\/[^\s)\]]+/g) ?? [])])];
      return count(traceId, turn, { checked: invalid.length, invalid, links: [], replacements: {} });
    }
    return count(traceId, turn, auditLinks(text, routes));
  }

  function count(traceId: string, turn: AssistantTurn, result: LinkAuditResult): LinkAuditResult {
    linkAudits.turns += 1;
    linkAudits.checked += result.checked;
    linkAudits.invalid += result.invalid.length;
    if (result.invalid.length) {
      log.warn({ traceId, channel: turn.channel, invalid: result.invalid, invalidTotal: linkAudits.invalid }, `[link-audit] ${result.invalid.length} internal link(s) are not public routes`);
    }
    return result;
  }

  function observe(traceId: string, turn: AssistantTurn, locale: string, startedAt: number, stream: boolean, outcome: { usage?: { inputTokens?: number; outputTokens?: number }; steps: number; text?: string; error?: unknown }) {
    const latencyMs = performance.now() - startedAt;
    log.info(
      { traceId, channel: turn.channel, locale, model: modelId, steps: outcome.steps, latencyMs: Math.round(latencyMs), error: outcome.error ? (outcome.error as Error).message : undefined },
      outcome.error ? 'assistant turn failed' : 'assistant turn',
    );
    recordGeneration(analytics, { enabled: config.aiObservabilityEnabled, captureContent: config.aiObservabilityCaptureContent }, {
      traceId,
      model: modelId,
      provider,
      inputTokens: outcome.usage?.inputTokens,
      outputTokens: outcome.usage?.outputTokens,
      latencyMs,
      stream,
      channel: turn.channel,
      locale,
      steps: outcome.steps,
      error: outcome.error,
      input: turn.messages.map((message) => ({ role: message.role, content: message.text })),
      output: outcome.text,
    });
  }

  function run(turn: AssistantTurn) {
    const { traceId, locale, settings, startedAt } = prepare(turn);
    let observed = false;
    const once = (outcome: Parameters<typeof observe>[5]) => {
      if (observed) return;
      observed = true;
      observe(traceId, turn, locale, startedAt, true, outcome);
    };
    const result = streamText({
      ...settings,
      experimental_transform: linkGuard({ siteOrigins: () => originsFor(locale), onRemoved: (url) => removed(traceId, turn, url) }),
      onFinish: ({ totalUsage, steps, text }) => once({ usage: totalUsage, steps: steps.length, text }),
      onError: ({ error }) => once({ steps: 0, error }),
      onAbort: ({ steps }) => once({ steps: steps.length, error: new Error('aborted by the client') }),
    });
    const outputs = async (): Promise<ToolOutput[]> => (await result.steps).flatMap((step) => step.toolResults.map((r) => ({ toolName: r.toolName, output: r.output })));
    return { traceId, locale, result, outputs };
  }

  return {
    linkAudits,
    modelName: `${provider}:${modelId}`,

    async reply(turn) {
      const { traceId, locale, settings, startedAt } = prepare(turn);
      let text: string;
      let outputs: ToolOutput[];
      try {
        const result = await generateText(settings);
        text = mayHoldLink(result.text) ? removeForeignLinks(result.text, await originsFor(locale), (url) => removed(traceId, turn, url)) : result.text;
        outputs = result.steps.flatMap((step) => step.toolResults.map((r) => ({ toolName: r.toolName, output: r.output })));
        observe(traceId, turn, locale, startedAt, false, { usage: result.totalUsage, steps: result.steps.length, text });
      } catch (error) {
        observe(traceId, turn, locale, startedAt, false, { steps: 0, error });
        throw error;
      }
      const result = await audit(traceId, turn, locale, text, outputs);
      const reply: AssistantReply = { text, links: result.links, audit: { invalid: result.invalid, replacements: result.replacements } };
      return reply;
    },

    streamUi(turn) {
      return createUIMessageStream({
        execute: async ({ writer }) => {
          const { traceId, locale, result, outputs } = run(turn);
          for await (const chunk of result.toUIMessageStream({ sendFinish: false, onError: publicError })) writer.write(chunk);
          if (turn.abortSignal?.aborted) return;
          let text: string;
          let toolOutputs: ToolOutput[];
          try {
            [text, toolOutputs] = await Promise.all([result.text, outputs()]);
          } catch {
            return; // the error part is already in the stream
          }
          const findings = await audit(traceId, turn, locale, text, toolOutputs);
          writer.write({ type: 'data-link-audit', data: { checked: findings.checked, invalid: findings.invalid }, transient: true });
          writer.write({ type: 'finish', finishReason: 'stop' });
        },
        onError: publicError,
      });
    },

    streamPlainText(turn) {
      const { traceId, locale, result, outputs } = run(turn);
      // The audit still runs (logged and counted); the legacy route has no channel to report it on.
      void Promise.all([result.text, outputs()])
        .then(([text, toolOutputs]) => audit(traceId, turn, locale, text, toolOutputs))
        .catch(() => undefined);
      return result.textStream;
    },
  };
}

/**
 * The conversation as model messages. An earlier assistant message's tool calls (inputs from the client's UI
 * history) are given as calls whose results say they were not kept: the model sees what the turn looked up —
 * the show, the day, the party — and fetches any fact it needs again instead of trusting a client's copy.
 */
export function modelMessages(history: AssistantTurn['messages']): ModelMessage[] {
  const messages: ModelMessage[] = [];
  history.forEach((message, index) => {
    if (message.role === 'assistant' && message.tools?.length) {
      const calls = message.tools.map((tool, n) => ({ ...tool, toolCallId: `history-${index}-${n}` }));
      messages.push({ role: 'assistant', content: calls.map((call) => ({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input })) });
      messages.push({
        role: 'tool',
        content: calls.map((call) => ({ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: { type: 'json', value: { note: 'An earlier turn’s result, not kept: call the tool again for current facts.' } } })),
      });
    }
    if (message.text.trim() !== '') messages.push({ role: message.role, content: message.text });
  });
  return messages;
}

/** What a client sees of an error (never the server's details). */
function publicError(error: unknown): string {
  return (error as Error)?.name === 'AbortError' ? 'The request was cancelled.' : 'The assistant could not answer just now. Please try again.';
}

/** The answer's locale: the guest's language when it is clear and the site has it, else the turn's locale. */
export function answerLocale(turn: AssistantTurn, config: Pick<Config, 'siteLocales' | 'defaultLocale'>): string {
  const question = [...turn.messages].reverse().find((message) => message.role === 'user')?.text ?? '';
  // Read as the offline model reads it (one reading of the message: its tools' locale and its answer's agree).
  const written = messageLanguage(question);
  if (written && config.siteLocales.includes(written)) return written;
  if (config.siteLocales.includes(turn.locale)) return turn.locale;
  const base = turn.locale.split('-')[0];
  return config.siteLocales.includes(base) ? base : config.defaultLocale;
}
