import { Readable } from 'node:stream';
import { expect } from 'chai';
import { bytes, cookie, expiredCookie, json, noContent, redirect, stream, withCookies, type HandlerMap } from '../../server/platform/http/handler.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { httpFixture, httpFixtureRegistry, PNG } from './fixture.ts';

/**
 * Replies beyond JSON, through the Reply only (server/platform/http/handler.ts): bytes with Content-Disposition and
 * Content-Length, a Node stream, a web stream sent as it is produced (SSE), a redirect, 204, cookies; and
 * response validation of a reply whose content type the contract does not declare.
 */

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(1000, 0x20), Buffer.from('\n%%EOF\n')]);

/** Released by the SSE test once it has read the first event: the stream cannot end before that. */
let releaseSecondEvent: () => void = () => {};

const handlers: HandlerMap = {
  getBytes: () => bytes(PDF, 'application/pdf', { filename: 'vé ticket "1".pdf' }),
  getNodeStream: () => stream(Readable.from(['alpha ', 'beta ', 'gamma']), 'text/plain'),
  getEvents: () => {
    const encoder = new TextEncoder();
    const gate = new Promise<void>((resolve) => (releaseSecondEvent = resolve));
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode('event: start\ndata: {"n":1}\n\n'));
        await gate;
        controller.enqueue(encoder.encode('data: {"n":2}\n\n'));
        controller.close();
      },
    });
    return stream(body, 'text/event-stream');
  },
  getRedirect: () => redirect('/api/test/http/bytes', 302),
  deleteNothing: () => noContent(),
  setCookies: () =>
    withCookies(
      json(200, { ok: true }),
      cookie('prefs', 'dark', { httpOnly: true, sameSite: 'lax', maxAge: 3600 }),
      cookie('strict', 'abc.def', { secure: true, sameSite: 'strict', path: '/api' }),
      expiredCookie('old', { path: '/' }),
    ),
  getWrongType: () => bytes(PNG, 'image/png'),
  uploadForm: () => json(200, {}),
  uploadRaw: () => json(200, {}),
  receiveWebhook: () => json(200, {}),
  receiveJson: () => json(200, {}),
};

describe('http: replies beyond JSON', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ contract: httpFixture, handlers, registry: httpFixtureRegistry });
  });
  after(() => server.close());

  it('sends a Buffer as it is, with its type, Content-Length and an RFC 6266 Content-Disposition', async () => {
    const res = await server.request('GET', '/api/test/http/bytes');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/pdf');
    expect(res.headers.get('content-length')).to.equal(String(PDF.length));
    expect(res.headers.get('content-disposition')).to.equal(
      `attachment; filename="v_ ticket _1_.pdf"; filename*=UTF-8''v%C3%A9%20ticket%20%221%22.pdf`,
    );
    expect(res.bytes.equals(PDF)).to.equal(true);
  });

  it('sends a Node Readable, chunked', async () => {
    const res = await server.request('GET', '/api/test/http/node-stream');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/plain');
    expect(res.headers.get('content-length')).to.equal(null);
    expect(res.text).to.equal('alpha beta gamma');
  });

  it('sends a web ReadableStream as server-sent events as they are produced (the first arrives before the stream ends)', async () => {
    const response = await fetch(`${server.baseUrl}/api/test/http/sse`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).to.equal('no-cache');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    // The second event waits for releaseSecondEvent(): reading the first must not need the stream to end.
    while (!received.includes('\n\n')) {
      const { value, done } = await reader.read();
      expect(done, 'the stream ended before the first event was read').to.equal(false);
      received += decoder.decode(value, { stream: true });
    }
    expect(received).to.equal('event: start\ndata: {"n":1}\n\n');
    releaseSecondEvent();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value, { stream: true });
    }
    expect(received).to.equal('event: start\ndata: {"n":1}\n\ndata: {"n":2}\n\n');
  });

  it('redirects with a 3xx and Location', async () => {
    const res = await server.request('GET', '/api/test/http/redirect');
    expect(res.status).to.equal(302);
    expect(res.headers.get('location')).to.equal('/api/test/http/bytes');
  });

  it('answers 204 with no body', async () => {
    const res = await server.request('DELETE', '/api/test/http/nothing');
    expect(res.status).to.equal(204);
    expect(res.text).to.equal('');
  });

  it('sets cookies through the reply (HttpOnly, SameSite, Secure, Max-Age, Path; a deletion)', async () => {
    const res = await server.request('POST', '/api/test/http/cookies');
    expect(res.status).to.equal(200);
    const cookies = res.headers.getSetCookie();
    expect(cookies).to.have.length(3);
    expect(cookies[0]).to.match(/^prefs=dark; Path=\/; Max-Age=3600; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
    expect(cookies[1]).to.equal('strict=abc.def; Path=/api; Secure; SameSite=Strict');
    expect(cookies[2]).to.equal('old=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  });

  it('response validation catches a content type the operation does not declare (a loud 500, as problem+json)', async () => {
    const res = await server.request('GET', '/api/test/http/wrong-type');
    expect(res.status).to.equal(500);
    expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
    const failure = server.logs.find((line) => line.msg === 'request failed');
    expect(failure?.err?.message).to.include('getWrongType: 200 content type image/png is not one of application/json');
  });
});
