import type { AppContext, PlatformContext } from '../../platform/context.ts';
import type { ToolName } from '../../assistant/tools.ts';
import { AssistantEngine, noteOwnAddress, socketBaseUrl, type AssistantMessage, type AssistantTurn } from '../../assistant/index.ts';
import type { Call } from '../../platform/http/handler.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/rateLimit.ts';

declare module '../../platform/context.ts' {
  interface AppContext {
    /** `/llm/chat`, `/api/ai/demo` and the legacy route share one budget per client address (the assistant module). */
    assistantTurnLimit: RateLimit;
  }
}

/** The module's per-app services (its record's `services`). */
export function assistantServices(platform: PlatformContext): Pick<AppContext, 'assistantTurnLimit' | 'assistantEngine'> {
  const { config, db } = platform;
  return {
    assistantEngine: new AssistantEngine(),
    assistantTurnLimit: new RateLimit({ name: 'assistant-turn-address', points: config.llmChatRateLimitPerMinute, windowSeconds: 60 }, rateLimitStoreFor(db)),
  };
}

export async function throttleTurn(call: Call): Promise<void> {
  await consumeOrThrow([[call.app.assistantTurnLimit, addressKey(call.ip)]], 'Too many questions from this address; try again in a minute.');
}

/**
 * The assistant's tools call this service back over HTTP: the local address this request arrived on is one
 * this process listens on, so it is where they go (unless ASSISTANT_API_BASE_URL says otherwise).
 */
export function noteAddressOf(call: Call): void {
  const socket = call.koa.req.socket;
  const url = socketBaseUrl(socket.localAddress, socket.localPort);
  if (url) noteOwnAddress(call.app, url);
}

/** Aborted when the client goes away before the answer is complete (generation stops, tools are not called). */
export function abortOnDisconnect(call: Call): AbortSignal {
  const controller = new AbortController();
  const { res } = call.koa;
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new DOMException('The client disconnected.', 'AbortError'));
  });
  return controller.signal;
}

/**
 * UI messages (AI SDK `useChat`) as the agent's conversation: the text parts, and of an assistant message its
 * tool parts' inputs (`tool-<name>`, a tool of the agent's, the input valid for it: what the turn looked up).
 * Other parts are ignored. The tools' input schemas (zod) are loaded with the first turn that has tool parts.
 */
export async function conversationOf(messages: Array<{ role: string; parts: Array<{ type: string; text?: unknown; input?: unknown }> }>): Promise<AssistantMessage[]> {
  const hasTools = messages.some((message) => message.role === 'assistant' && message.parts.some((part) => part.type.startsWith('tool-')));
  const inputs = hasTools ? (await import('../../assistant/tools.ts')).TOOL_INPUTS : undefined;
  return messages.flatMap((message) => {
    if (message.role !== 'user' && message.role !== 'assistant') return [];
    const text = message.parts
      .filter((part) => part.type === 'text' && typeof part.text === 'string')
      .map((part) => part.text as string)
      .join('\n')
      .trim();
    const tools = message.role === 'assistant' && inputs ? message.parts.flatMap((part) => toolInputOf(inputs, part)) : [];
    if (!text && !tools.length) return [];
    return [{ role: message.role, text, ...(tools.length ? { tools } : {}) }];
  });
}

function toolInputOf(
  inputs: typeof import('../../assistant/tools.ts').TOOL_INPUTS,
  part: { type: string; input?: unknown },
): Array<{ toolName: string; input: Record<string, unknown> }> {
  if (!part.type.startsWith('tool-')) return [];
  const toolName = part.type.slice(5);
  const schema = Object.hasOwn(inputs, toolName) ? inputs[toolName as ToolName] : undefined;
  if (!schema) return [];
  const parsed = schema.safeParse(part.input);
  return parsed.success ? [{ toolName, input: parsed.data as Record<string, unknown> }] : [];
}

export function turnLocale(app: AppContext, locale: string | undefined): string {
  return locale ?? app.config.defaultLocale;
}

/** A turn's conversation must end with the guest's question. */
export function endsWithQuestion(messages: AssistantMessage[]): boolean {
  return messages.at(-1)?.role === 'user';
}

export function traceIdOf(call: Call): string {
  return call.requestId;
}

/** UI message chunks → SSE bytes (`data: {json}\n\n`, then `data: [DONE]`); the AI SDK is loaded with the agent. */
export async function sse(stream: ReadableStream<unknown>): Promise<ReadableStream<Uint8Array>> {
  const { JsonToSseTransformStream } = await import('ai');
  return stream.pipeThrough(new JsonToSseTransformStream()).pipeThrough(new TextEncoderStream());
}

export type { AssistantTurn };
