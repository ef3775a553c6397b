import type http from 'node:http';
import { answerJson, startFakePeer } from './fakePeer.ts';

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
  const script: ScriptedAnswer[] = [];
  let delayMs = 0;
  const peer = await startFakePeer<Captured>({
    record: (req) => ({ method: req.method, path: req.url, headers: req.headers, body: req.json }),
    answer(_req, res, captured) {
      const answer = script.shift() ?? { ...success(captured!), delayMs };
      if (answer.hang) return;
      setTimeout(() => answerJson(res, answer.status ?? 200, answer.body ?? {}), answer.delayMs ?? 0);
    },
  });
  return {
    url: peer.base,
    requests: peer.requests,
    /** The next answers, in order (then the success answer again). */
    queue(...answers: ScriptedAnswer[]) {
      script.push(...answers);
    },
    /** Every success answer waits this long (a slow platform). */
    set delayMs(ms: number) {
      delayMs = ms;
    },
    reset() {
      peer.requests.length = 0;
      script.length = 0;
      delayMs = 0;
    },
    received: peer.received,
    close: peer.close,
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
