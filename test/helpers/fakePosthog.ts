import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface CapturedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/** A stand-in for PostHog's ingestion host: records every request (gunzipped when compressed), answers 200. */
export async function startFakePostHog() {
  const requests: CapturedRequest[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let raw = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
      const text = raw.toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      requests.push({ method: req.method!, path: req.url!, headers: req.headers, text, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":1}');
      waiters.splice(0).forEach((wake) => wake());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    /** Resolves once `count` requests have arrived. */
    async received(count: number): Promise<CapturedRequest[]> {
      while (requests.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakePostHog = Awaited<ReturnType<typeof startFakePostHog>>;

/** The events of every `/batch/` request received, in order. */
export const capturedEvents = (requests: CapturedRequest[]) => requests.flatMap((r) => (r.body?.batch ?? []) as Array<Record<string, any>>);
