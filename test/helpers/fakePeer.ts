import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { eventually } from './eventually.ts';

/**
 * The one way a spec starts a local fake of an outside service (VNPay, Mistral, Turnstile, PostHog, Meta's
 * Graph API, the chat platforms): an HTTP server on an ephemeral loopback port that reads each request's body
 * (gunzipped when compressed), records it, and hands it to the fake's `answer`. `received(n)` waits (with a
 * deadline) for n recorded requests; `close()` ends open connections too, so a fake that never answers
 * (a hanging peer) cannot keep the run alive.
 */
export interface PeerRequest {
  method: string;
  /** The request target as sent: path and query string. */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The body's bytes (gunzipped). */
  raw: Buffer;
  text: string;
  /** The body parsed as JSON, or its text when it is not JSON. */
  json: any;
}

export interface FakePeer<R> {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** What the fake recorded (by default every request, as a `PeerRequest`). */
  requests: R[];
  /** Resolves with `requests` once `count` have been recorded; throws after `timeoutMs`. */
  received(count: number, timeoutMs?: number): Promise<R[]>;
  close(): Promise<void>;
}

export async function startFakePeer<R = PeerRequest>(options: {
  /** Answers a request; returning without ending `res` leaves the request hanging (closed by `close()`). */
  answer(req: PeerRequest, res: http.ServerResponse, recorded: R | undefined): void;
  /** What to record for a request (default: the request itself); `undefined` records nothing. */
  record?: (req: PeerRequest) => R | undefined;
}): Promise<FakePeer<R>> {
  const requests: R[] = [];
  const record = options.record ?? ((req: PeerRequest) => req as unknown as R);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let raw = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
      const text = raw.toString('utf8');
      let json: any = text;
      try {
        json = JSON.parse(text);
      } catch {
        // kept as text
      }
      const request: PeerRequest = { method: req.method!, url: req.url ?? '', headers: req.headers, raw, text, json };
      const recorded = record(request);
      if (recorded !== undefined) requests.push(recorded);
      options.answer(request, res, recorded);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    async received(count, timeoutMs = 10_000) {
      await eventually(() => requests.length >= count, { timeoutMs, intervalMs: 10, what: () => `${count} requests (got ${requests.length})` });
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON answer. */
export function answerJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** `http://127.0.0.1:<port>` of a port nothing listens on any more (just released): a peer that refuses connections. */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
