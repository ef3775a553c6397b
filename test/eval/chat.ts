import { performance } from 'node:perf_hooks';

/**
 * One `/llm/chat` turn as the website's `useChat` makes it: the UI messages so far and the locale, the answer read
 * as it streams (SSE, AI SDK UI message stream), timed to the first `text-delta` and to the stream's end.
 */
export interface UiMessage {
  id: string;
  role: 'user' | 'assistant';
  parts: Array<Record<string, unknown>>;
}

export interface ChatAnswer {
  status: number;
  text: string;
  chunks: Array<Record<string, any>>;
  /** ms from sending to the first text-delta (undefined when none came). */
  firstTextMs?: number;
  endMs: number;
  /** The assistant's message as useChat keeps it (text and tool parts), for the next turn's history. */
  message: UiMessage;
  error?: string;
}

export const userMessage = (text: string, id: string): UiMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });

export async function chat(baseUrl: string, messages: UiMessage[], locale: string, id: string): Promise<ChatAnswer> {
  const started = performance.now();
  let firstTextMs: number | undefined;
  const chunks: Array<Record<string, any>> = [];
  let status = 0;
  let error: string | undefined;
  try {
    const res = await fetch(`${baseUrl}/llm/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, trigger: 'submit-message', locale, messages }),
    });
    status = res.status;
    if (!res.ok || !res.body) {
      error = `HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`;
    } else {
      const decoder = new TextDecoder();
      let buffered = '';
      for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(bytes, { stream: true });
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const event = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const data = event
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          if (!data || data === '[DONE]') continue;
          const chunk = JSON.parse(data) as Record<string, any>;
          if (chunk.type === 'text-delta' && firstTextMs === undefined && chunk.delta) firstTextMs = performance.now() - started;
          if (chunk.type === 'error') error = `stream error: ${chunk.errorText}`;
          chunks.push(chunk);
        }
      }
    }
  } catch (err) {
    error = (err as Error).message;
  }
  const endMs = performance.now() - started;
  const text = chunks
    .filter((chunk) => chunk.type === 'text-delta')
    .map((chunk) => chunk.delta)
    .join('');
  return { status, text, chunks, firstTextMs, endMs, message: assistantMessage(chunks, `${id}-a`), error };
}

/**
 * The assistant's UI message rebuilt from its stream, as `useChat` holds it: `step-start` parts, `tool-<name>`
 * parts `{ type, toolCallId, state: 'output-available', input, output }` and `text` parts, in stream order.
 */
export function assistantMessage(chunks: Array<Record<string, any>>, fallbackId: string): UiMessage {
  const parts: Array<Record<string, any>> = [];
  const tools = new Map<string, Record<string, any>>();
  const texts = new Map<string, Record<string, any>>();
  let id = fallbackId;
  for (const chunk of chunks) {
    switch (chunk.type) {
      case 'start':
        if (chunk.messageId) id = chunk.messageId;
        break;
      case 'start-step':
        parts.push({ type: 'step-start' });
        break;
      case 'tool-input-available': {
        const part = { type: `tool-${chunk.toolName}`, toolCallId: chunk.toolCallId, state: 'input-available', input: chunk.input };
        tools.set(chunk.toolCallId, part);
        parts.push(part);
        break;
      }
      case 'tool-output-available': {
        const part = tools.get(chunk.toolCallId);
        if (part) Object.assign(part, { state: 'output-available', output: chunk.output });
        break;
      }
      case 'text-start': {
        const part = { type: 'text', text: '', state: 'streaming' };
        texts.set(chunk.id, part);
        parts.push(part);
        break;
      }
      case 'text-delta': {
        let part = texts.get(chunk.id);
        if (!part) {
          part = { type: 'text', text: '', state: 'streaming' };
          texts.set(chunk.id, part);
          parts.push(part);
        }
        part.text += chunk.delta;
        break;
      }
      case 'text-end': {
        const part = texts.get(chunk.id);
        if (part) part.state = 'done';
        break;
      }
    }
  }
  // A tool call the stream never answered is not sent back as if it had been.
  return { id, role: 'assistant', parts: parts.filter((part) => !String(part.type).startsWith('tool-') || part.state === 'output-available') };
}
