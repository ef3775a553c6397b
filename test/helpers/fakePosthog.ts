import type http from 'node:http';
import { answerJson, startFakePeer } from './fakePeer.ts';

export interface CapturedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/** A stand-in for PostHog's ingestion host: records every request (gunzipped when compressed), answers 200. */
export async function startFakePostHog() {
  const peer = await startFakePeer<CapturedRequest>({
    record: (req) => ({ method: req.method, path: req.url, headers: req.headers, text: req.text, body: req.json }),
    answer: (_req, res) => answerJson(res, 200, { status: 1 }),
  });
  return {
    url: peer.base,
    requests: peer.requests,
    /** Resolves once `count` requests have arrived (throws after `timeoutMs`). */
    received: (count: number, timeoutMs = 20_000) => peer.received(count, timeoutMs),
    close: peer.close,
  };
}

export type FakePostHog = Awaited<ReturnType<typeof startFakePostHog>>;

/** The events of every `/batch/` request received, in order. */
export const capturedEvents = (requests: CapturedRequest[]) => requests.flatMap((r) => (r.body?.batch ?? []) as Array<Record<string, any>>);
