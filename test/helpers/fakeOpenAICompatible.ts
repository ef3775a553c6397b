import type http from 'node:http';
import { startFakePeer } from './fakePeer.ts';

/**
 * A stand-in for a self-hosted model behind an OpenAI-compatible API (Ollama, vLLM, llama.cpp server):
 * `POST /v1/chat/completions`, streaming as server-sent events in OpenAI's `chat.completion.chunk` format — tool
 * calls streamed as a first delta with the id and function name and then argument fragments, `finish_reason` on
 * its own chunk, and (when asked with `stream_options.include_usage`) a last chunk with no choices and the usage.
 * It answers each request with the next scripted turn (a tool call round or text) and records what it received; a
 * request without `stream: true` gets one `chat.completion` object instead, and a `hang` turn is never answered.
 */
export type OpenAICompatibleTurn =
  | { toolCalls: Array<{ id: string; name: string; arguments: Record<string, unknown> }> }
  | { text: string }
  /** Never answered (a model still thinking): the request stays open until the caller goes away or the fake closes. */
  | { hang: true };

export interface OpenAICompatibleRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export async function startFakeOpenAICompatible(script: OpenAICompatibleTurn[]) {
  const peer = await startFakePeer<OpenAICompatibleRequest>({
    record: (req) => ({ path: req.url, headers: req.headers, body: req.text ? req.json : {} }),
    answer(req, res, recorded) {
      const { requests } = peer;
      const body = recorded!.body;
      const turn = script[requests.length - 1];
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions' || !turn) {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"unexpected request","type":"invalid_request_error"}}');
        return;
      }
      if ('hang' in turn) return;
      if (!body.stream) {
        // A non-streaming call (the background turns' generation): one `chat.completion` object.
        const message =
          'text' in turn
            ? { role: 'assistant', content: turn.text }
            : { role: 'assistant', content: null, tool_calls: turn.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } })) };
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `chatcmpl-${requests.length}`,
            object: 'chat.completion',
            created: 1_700_000_000,
            model: body.model,
            choices: [{ index: 0, message, logprobs: null, finish_reason: 'text' in turn ? 'stop' : 'tool_calls' }],
            usage: { prompt_tokens: 120, completion_tokens: 20, total_tokens: 140 },
          }),
        );
        return;
      }
      const base = { id: `chatcmpl-${requests.length}`, object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model, system_fingerprint: 'fp_local' };
      const send = (choices: unknown[], extra: Record<string, unknown> = {}) => res.write(`data: ${JSON.stringify({ ...base, choices, ...extra })}\n\n`);
      const delta = (value: Record<string, unknown>, finishReason: string | null = null) => send([{ index: 0, delta: value, logprobs: null, finish_reason: finishReason }]);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      delta({ role: 'assistant', content: '' });
      let usage: Record<string, number>;
      if ('text' in turn) {
        for (const word of turn.text.match(/\S+\s*/g) ?? []) delta({ content: word });
        delta({}, 'stop');
        usage = { prompt_tokens: 140, completion_tokens: 25, total_tokens: 165 };
      } else {
        turn.toolCalls.forEach((call, index) => {
          delta({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
          const args = JSON.stringify(call.arguments);
          // Arguments arrive in fragments, as a streaming server sends them.
          for (let at = 0; at < args.length; at += 4) delta({ tool_calls: [{ index, function: { arguments: args.slice(at, at + 4) } }] });
        });
        delta({}, 'tool_calls');
        usage = { prompt_tokens: 110, completion_tokens: 12, total_tokens: 122 };
      }
      if (body.stream_options?.include_usage) send([], { usage });
      res.end('data: [DONE]\n\n');
    },
  });
  return { url: `${peer.base}/v1`, requests: peer.requests, close: peer.close };
}
