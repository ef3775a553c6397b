import type http from 'node:http';
import { startFakePeer } from './fakePeer.ts';

/**
 * A stand-in for Mistral's API (`POST /v1/chat/completions`, streaming as server-sent events in its
 * `chat.completion.chunk` format): answers each request with the next scripted turn — a tool call round or
 * text — and records what it received.
 */
export type MistralTurn = { toolCalls: Array<{ id: string; name: string; arguments: Record<string, unknown> }> } | { text: string };

export interface MistralRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export async function startFakeMistral(script: MistralTurn[]) {
  const peer = await startFakePeer<MistralRequest>({
    record: (req) => ({ path: req.url, headers: req.headers, body: req.text ? req.json : {} }),
    answer(req, res, recorded) {
      const { requests } = peer;
      const body = recorded!.body;
      const turn = script[requests.length - 1];
      if (req.url !== '/v1/chat/completions' || !turn) {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"unexpected request"}');
        return;
      }
      const base = { id: `cmpl-${requests.length}`, object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model };
      const send = (choice: Record<string, unknown>, usage?: Record<string, number>) => res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, ...choice }], ...(usage ? { usage } : {}) })}\n\n`);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      send({ delta: { role: 'assistant', content: '' }, finish_reason: null });
      if ('text' in turn) {
        for (const word of turn.text.match(/\S+\s*/g) ?? []) send({ delta: { content: word }, finish_reason: null });
        send({ delta: { content: '' }, finish_reason: 'stop' }, { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 });
      } else {
        send({
          delta: { content: '', tool_calls: turn.toolCalls.map((call, index) => ({ index, id: call.id, function: { name: call.name, arguments: JSON.stringify(call.arguments) } })) },
          finish_reason: 'tool_calls',
        }, { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 });
      }
      res.end('data: [DONE]\n\n');
    },
  });
  return { url: `${peer.base}/v1`, requests: peer.requests, close: peer.close };
}
