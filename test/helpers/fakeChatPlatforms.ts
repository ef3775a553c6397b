import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the chat platforms' APIs, for tests: ManyChat (`POST /fb/sending/sendContent`) and Meta's
 * WhatsApp Cloud API (`POST /<version>/<phone-number-id>/messages`). Each records every request (method, path,
 * headers, parsed body) and answers from a script: queued answers first (`queue`), otherwise the platform's
 * documented success body. An answer may be delayed, or never sent (`hang`), to exercise time-outs.
 */
export interface Captured {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface ScriptedAnswer {
  status?: number;
  body?: unknown;
  delayMs?: number;
  hang?: boolean;
}

export async function startFakePlatform(success: (req: Captured) => { status: number; body: unknown }) {
  const requests: Captured[] = [];
  const script: ScriptedAnswer[] = [];
  const waiters: Array<() => void> = [];
  let delayMs = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const captured: Captured = { method: req.method!, path: req.url!, headers: req.headers, body };
      requests.push(captured);
      waiters.splice(0).forEach((wake) => wake());
      const answer = script.shift() ?? { ...success(captured), delayMs };
      if (answer.hang) return;
      setTimeout(() => {
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body ?? {}));
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    /** The next answers, in order (then the success answer again). */
    queue(...answers: ScriptedAnswer[]) {
      script.push(...answers);
    },
    /** Every success answer waits this long (a slow platform). */
    set delayMs(ms: number) {
      delayMs = ms;
    },
    reset() {
      requests.length = 0;
      script.length = 0;
      delayMs = 0;
    },
    async received(count: number, timeoutMs = 10_000): Promise<Captured[]> {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${requests.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakePlatform = Awaited<ReturnType<typeof startFakePlatform>>;

/** ManyChat answers `{ "status": "success" }` to an accepted sendContent. */
export const startFakeManyChat = () => startFakePlatform(() => ({ status: 200, body: { status: 'success' } }));

/** The Cloud API answers a message send with the contact and the new message id; a read/typing call with `{ success: true }`. */
export const startFakeWhatsApp = () =>
  startFakePlatform((req) =>
    req.body?.status === 'read'
      ? { status: 200, body: { success: true } }
      : { status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: req.body?.to, wa_id: req.body?.to }], messages: [{ id: `wamid.fake${Date.now()}` }] } },
  );
