import type http from 'node:http';
import { answerJson, startFakePeer } from './fakePeer.ts';

export interface GraphRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface GraphAnswer {
  status: number;
  body: unknown;
}

/**
 * A stand-in for Meta's Graph API (`POST /{version}/{pixel}/events`): records every request; answers the queued
 * answers in order (`answerNext`), then 200 `{ events_received: <n>, messages: [], fbtrace_id }` like Meta does.
 */
export async function startFakeMetaGraph() {
  const answers: GraphAnswer[] = [];
  let trace = 0;
  const peer = await startFakePeer<GraphRequest>({
    record: (req) => ({ method: req.method, path: req.url, headers: req.headers, body: req.json }),
    answer(_req, res, recorded) {
      const body = recorded!.body;
      const answer = answers.shift() ?? {
        status: 200,
        body: { events_received: Array.isArray(body?.data) ? body.data.length : 0, messages: [], fbtrace_id: `TRACE${++trace}` },
      };
      answerJson(res, answer.status, answer.body);
    },
  });
  return {
    url: peer.base,
    requests: peer.requests,
    answerNext: (...next: GraphAnswer[]) => answers.push(...next),
    reset() {
      peer.requests.length = 0;
      answers.length = 0;
    },
    close: peer.close,
  };
}

export type FakeMetaGraph = Awaited<ReturnType<typeof startFakeMetaGraph>>;
