import { answerJson, startFakePeer } from './fakePeer.ts';

/** Cloudflare's documented Turnstile test secrets (developers.cloudflare.com/turnstile/troubleshooting/testing/). */
export const TURNSTILE_TEST_SECRETS = {
  pass: '1x0000000000000000000000000000000AA',
  fail: '2x0000000000000000000000000000000AA',
  spent: '3x0000000000000000000000000000000AA',
} as const;

/** The dummy token Cloudflare's test sitekeys produce. */
export const TURNSTILE_DUMMY_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';

export interface SiteverifyRequest {
  path: string;
  contentType: string | undefined;
  form: Record<string, string>;
}

/**
 * A stand-in for Turnstile's siteverify that answers as Cloudflare documents for its test secrets: the pass
 * secret accepts any token (`success: true`, hostname `example.com`, empty action), the fail secret rejects it
 * (`invalid-input-response`), the spent secret answers `timeout-or-duplicate`; any other secret is
 * `invalid-input-secret`, no token `missing-input-response`. Records what it received. `mode` makes it fail:
 * `error` answers HTTP 500, `garbage` answers HTML.
 */
export async function startFakeTurnstile() {
  const state = { mode: 'normal' as 'normal' | 'error' | 'garbage', hostname: 'example.com', action: '' };
  const peer = await startFakePeer<SiteverifyRequest>({
    record: (req) => ({ path: req.url, contentType: req.headers['content-type'], form: Object.fromEntries(new URLSearchParams(req.text)) }),
    answer(_req, res, recorded) {
      const { form } = recorded!;
      if (state.mode === 'error') return void res.writeHead(500).end('internal error');
      if (state.mode === 'garbage') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>');
      const answer = (body: object) => answerJson(res, 200, body);
      const now = new Date().toISOString();
      if (!form.secret) return answer({ success: false, 'error-codes': ['missing-input-secret'] });
      if (!form.response) return answer({ success: false, 'error-codes': ['missing-input-response'] });
      if (form.secret === TURNSTILE_TEST_SECRETS.pass) return answer({ success: true, challenge_ts: now, hostname: state.hostname, action: state.action, cdata: '', 'error-codes': [] });
      if (form.secret === TURNSTILE_TEST_SECRETS.fail) return answer({ success: false, 'error-codes': ['invalid-input-response'] });
      if (form.secret === TURNSTILE_TEST_SECRETS.spent) return answer({ success: false, 'error-codes': ['timeout-or-duplicate'] });
      return answer({ success: false, 'error-codes': ['invalid-input-secret'] });
    },
  });
  return { url: `${peer.base}/turnstile/v0/siteverify`, requests: peer.requests, state, close: peer.close };
}

export type FakeTurnstile = Awaited<ReturnType<typeof startFakeTurnstile>>;
