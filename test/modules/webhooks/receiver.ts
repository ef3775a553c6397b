import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A test receiver for the venue's webhooks (issue 36 §3): a local HTTP server that records every request, verifies
 * each with the `standardwebhooks` library's own `Webhook.verify` against the secrets it is given, and answers as the
 * test says — by default 200, or a failure for the first attempts of each message (`failFirst`), always (`/fail`), a
 * redirect (`/redirect` → `/sink`), or no answer at all (`/slow`).
 */
export interface ReceivedRequest {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The verified payload, or undefined when no secret verified it. */
  payload: any;
  /** The secrets (by index in `secrets`) whose verification passed. */
  verifiedWith: number[];
  /** What the receiver answered. */
  status: number;
}

export interface Receiver {
  url(path?: string): string;
  /** Secrets to verify with (the endpoint's, set by the test once it has them). */
  secrets: string[];
  /** Answer 503 to the first `n` attempts of each `webhook-id` (0: none). */
  failFirst: number;
  requests: ReceivedRequest[];
  /** The requests answered 2xx, in arrival order. */
  delivered(): ReceivedRequest[];
  reset(): void;
  close(): Promise<void>;
}

function verifications(secrets: string[], body: string, headers: http.IncomingHttpHeaders): { payload: any; verifiedWith: number[] } {
  let payload: any;
  const verifiedWith: number[] = [];
  secrets.forEach((secret, index) => {
    try {
      payload = new Webhook(secret).verify(body, headers as Record<string, string>);
      verifiedWith.push(index);
    } catch {
      // Not this secret's signature (or none of them): recorded as not verified with it.
    }
  });
  return { payload, verifiedWith };
}

export async function startReceiver(): Promise<Receiver> {
  const attemptsById = new Map<string, number>();
  const receiver = {
    secrets: [] as string[],
    failFirst: 0,
    requests: [] as ReceivedRequest[],
  } as Receiver;
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://receiver').pathname;
    if (path === '/slow') return; // never answers: the sender's time-out
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(request.headers['webhook-id'] ?? '');
      const seen = (attemptsById.get(id) ?? 0) + 1;
      attemptsById.set(id, seen);
      let status = 200;
      if (path === '/fail' || seen <= receiver.failFirst) status = 503;
      if (path === '/redirect') status = 302;
      receiver.requests.push({
        path,
        id,
        timestamp: String(request.headers['webhook-timestamp'] ?? ''),
        signature: String(request.headers['webhook-signature'] ?? ''),
        body,
        ...verifications(receiver.secrets, body, request.headers),
        status,
      });
      if (status === 302) response.writeHead(302, { location: receiver.url('/sink') }).end();
      else response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : `unavailable ${'x'.repeat(3000)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  receiver.url = (path = '/hooks') => `http://127.0.0.1:${port}${path}`;
  receiver.delivered = () => receiver.requests.filter((request) => request.status >= 200 && request.status < 300);
  receiver.reset = () => {
    receiver.requests.length = 0;
    receiver.failFirst = 0;
    attemptsById.clear();
  };
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}
