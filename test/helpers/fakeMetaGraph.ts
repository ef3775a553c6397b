import http from 'node:http';
import type { AddressInfo } from 'node:net';

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
  const requests: GraphRequest[] = [];
  const answers: GraphAnswer[] = [];
  let trace = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: any = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      requests.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      const answer = answers.shift() ?? {
        status: 200,
        body: { events_received: Array.isArray(body?.data) ? body.data.length : 0, messages: [], fbtrace_id: `TRACE${++trace}` },
      };
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answerNext: (...next: GraphAnswer[]) => answers.push(...next),
    reset() {
      requests.length = 0;
      answers.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeMetaGraph = Awaited<ReturnType<typeof startFakeMetaGraph>>;
