import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { json, type HandlerMap } from '../../server/platform/http/handler.ts';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';
import { chunked, GIF, httpFixture, httpFixtureRegistry, PNG } from './fixture.ts';

/**
 * Request bodies beyond JSON (server/platform/http/body.ts): multipart/form-data within and over the operation's
 * `x-max-upload-bytes`, files checked by magic bytes against their declared type, fields validated against
 * the form's schema; raw bodies (exact bytes, a media type's own limit); a JSON body's exact bytes for an
 * operation that opts in with `x-raw-body: true` (an HMAC over them), and not for one that does not.
 */

const WEBHOOK_SECRET = 'whsec-test';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const handlers: HandlerMap = {
  getBytes: () => json(200, {}),
  getNodeStream: () => json(200, {}),
  getEvents: () => json(200, {}),
  getRedirect: () => json(200, {}),
  deleteNothing: () => json(200, {}),
  setCookies: () => json(200, {}),
  getWrongType: () => json(200, {}),
  uploadForm: (call) => {
    const file = call.file('file')!;
    return json(200, {
      body: call.body,
      filename: file.filename,
      size: file.size,
      contentType: file.contentType,
      detectedType: file.detectedType,
      sha256: sha256(file.bytes),
      rawBody: call.rawBody === undefined ? null : 'set',
    });
  },
  uploadRaw: (call) => json(200, { contentType: call.contentType, size: call.rawBody!.length, sha256: sha256(call.rawBody!), body: call.body ?? null }),
  receiveWebhook: (call) => {
    const expected = 'sha256=' + createHmac('sha256', WEBHOOK_SECRET).update(call.rawBody!).digest('hex');
    return json(200, { signatureValid: call.header('x-hub-signature-256') === expected, event: call.body.event, rawLength: call.rawBody!.length });
  },
  receiveJson: (call) => json(200, { event: call.body.event, rawBody: call.rawBody === undefined ? null : 'set' }),
};

function form(fields: Record<string, string>, file?: { bytes: Buffer; type: string; name: string }): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  if (file) data.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return data;
}

function expectProblem(res: TestResponse, status: number, code: string) {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
  expect(res.body.code).to.equal(code);
}

const tmpUploads = () => fs.readdirSync(os.tmpdir()).filter((name) => /^upload_|formidable/i.test(name)).length;

describe('http: request bodies beyond JSON', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ contract: httpFixture, handlers, registry: httpFixtureRegistry });
  });
  after(() => server.close());

  describe('multipart/form-data', () => {
    it('takes a file within the limit: fields validated and coerced, the file in memory with its declared and detected type', async () => {
      const before = tmpUploads();
      const res = await server.request('POST', '/api/test/http/upload', {
        rawBody: form({ title: 'Poster', count: '3' }, { bytes: PNG, type: 'image/png', name: 'poster.png' }),
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({
        body: { title: 'Poster', count: 3, file: 'poster.png' },
        filename: 'poster.png',
        size: PNG.length,
        contentType: 'image/png',
        detectedType: 'image/png',
        sha256: sha256(PNG),
        rawBody: null,
      });
      expect(tmpUploads(), 'no file left in the temp dir').to.equal(before);
    });

    it('answers 413 past the operation\'s x-max-upload-bytes (2048)', async () => {
      const big = Buffer.concat([PNG, Buffer.alloc(3000)]);
      const res = await server.request('POST', '/api/test/http/upload', { rawBody: form({ title: 'Big' }, { bytes: big, type: 'image/png', name: 'big.png' }) });
      expectProblem(res, 413, 'payload_too_large');
    });

    it('answers 413 past the limit also when the body comes without Content-Length (counted while read)', async () => {
      const big = Buffer.concat([PNG, Buffer.alloc(3000)]);
      const encoded = new Response(form({ title: 'Big' }, { bytes: big, type: 'image/png', name: 'big.png' }));
      const type = encoded.headers.get('content-type')!;
      const bytes = Buffer.from(await encoded.arrayBuffer());
      const res = await server.request('POST', '/api/test/http/upload', { rawBody: chunked(bytes), headers: { 'content-type': type } });
      expectProblem(res, 413, 'payload_too_large');
    });

    it('refuses a "PNG" whose magic bytes say GIF: 400 file_type_mismatch naming the field', async () => {
      const res = await server.request('POST', '/api/test/http/upload', { rawBody: form({ title: 'Fake' }, { bytes: GIF, type: 'image/png', name: 'fake.png' }) });
      expectProblem(res, 400, 'file_type_mismatch');
      expect(res.body.errors).to.deep.equal([{ path: 'body/file', message: 'content is not image/png (it looks like image/gif)', code: 'file_type_mismatch' }]);
    });

    it('refuses a "PNG" with no signature at all (text bytes): 400 file_type_mismatch', async () => {
      const res = await server.request('POST', '/api/test/http/upload', {
        rawBody: form({ title: 'Fake' }, { bytes: Buffer.from('just some text'), type: 'image/png', name: 'fake.png' }),
      });
      expectProblem(res, 400, 'file_type_mismatch');
    });

    it('refuses a part type the encoding does not accept: 415 with unsupported_file_type', async () => {
      const res = await server.request('POST', '/api/test/http/upload', { rawBody: form({ title: 'Gif' }, { bytes: GIF, type: 'image/gif', name: 'a.gif' }) });
      expectProblem(res, 415, 'unsupported_media_type');
      expect(res.body.errors[0]).to.include({ path: 'body/file', code: 'unsupported_file_type' });
    });

    it('answers 400 with the failing fields: a missing file, a bad count, an unknown field', async () => {
      const res = await server.request('POST', '/api/test/http/upload', { rawBody: form({ title: 'x', count: 'many', extra: '1' }) });
      expectProblem(res, 400, 'validation_failed');
      const paths = res.body.errors.map((e: { path: string }) => e.path);
      expect(paths).to.include.members(['body/file', 'body/count', 'body/extra']);
    });

    it('answers 400 for a text value in a file field, and for a malformed multipart body', async () => {
      const asText = await server.request('POST', '/api/test/http/upload', { rawBody: form({ title: 'x', file: 'not a file' }) });
      expectProblem(asText, 400, 'validation_failed');
      expect(asText.body.errors[0]).to.include({ path: 'body/file', code: 'file_required' });
      const broken = await server.request('POST', '/api/test/http/upload', {
        rawBody: '--xyz\r\nContent-Disposition: form-data; name="title"\r\n\r\nunterminated',
        headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      });
      expectProblem(broken, 400, 'malformed_body');
    });

    it('answers 415 for a media type the operation does not declare', async () => {
      const res = await server.request('POST', '/api/test/http/upload', { rawBody: 'title=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expectProblem(res, 415, 'unsupported_media_type');
    });
  });

  describe('raw bodies', () => {
    it('gives the handler the exact bytes and the media type', async () => {
      const res = await server.request('POST', '/api/test/http/raw', { rawBody: PNG, headers: { 'content-type': 'image/png' } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({ contentType: 'image/png', size: PNG.length, sha256: sha256(PNG), body: null });
      const any = Buffer.from([0, 1, 2, 3, 255, 254]);
      const octets = await server.request('POST', '/api/test/http/raw', { rawBody: any, headers: { 'content-type': 'application/octet-stream' } });
      expect(octets.body).to.include({ contentType: 'application/octet-stream', size: 6, sha256: sha256(any) });
    });

    it('checks raw bytes against the Content-Type by magic bytes (400) and refuses an undeclared type (415)', async () => {
      expectProblem(await server.request('POST', '/api/test/http/raw', { rawBody: GIF, headers: { 'content-type': 'image/png' } }), 400, 'file_type_mismatch');
      expectProblem(await server.request('POST', '/api/test/http/raw', { rawBody: GIF, headers: { 'content-type': 'image/gif' } }), 415, 'unsupported_media_type');
    });

    it("answers 413 past the media type's own limit (4096), with or without Content-Length, and the other type takes the default", async () => {
      const big = Buffer.concat([PNG, Buffer.alloc(5000)]);
      expectProblem(await server.request('POST', '/api/test/http/raw', { rawBody: big, headers: { 'content-type': 'image/png' } }), 413, 'payload_too_large');
      expectProblem(await server.request('POST', '/api/test/http/raw', { rawBody: chunked(big), headers: { 'content-type': 'image/png' } }), 413, 'payload_too_large');
      const octets = await server.request('POST', '/api/test/http/raw', { rawBody: big, headers: { 'content-type': 'application/octet-stream' } });
      expect(octets.status).to.equal(200);
    });
  });

  describe('JSON with x-raw-body', () => {
    // Odd spacing and key order: re-serializing the parsed body would not give these bytes back.
    const payload = Buffer.from('{ "zeta": 1,\n  "event" : "push",  "emoji": "\u{1F389}" }\n');
    const signature = 'sha256=' + createHmac('sha256', WEBHOOK_SECRET).update(payload).digest('hex');

    it('gives the handler the exact bytes (an HMAC over them matches) besides the parsed, validated body', async () => {
      const res = await server.request('POST', '/api/test/http/webhook', {
        rawBody: payload,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({ signatureValid: true, event: 'push', rawLength: payload.length });
      const tampered = await server.request('POST', '/api/test/http/webhook', {
        rawBody: Buffer.from(payload.toString().replace('push', 'pull')),
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      });
      expect(tampered.body.signatureValid).to.equal(false);
    });

    it('still validates the body (400) and refuses malformed JSON (400)', async () => {
      const headers = { 'content-type': 'application/json' };
      expectProblem(await server.request('POST', '/api/test/http/webhook', { rawBody: '{"other":1}', headers }), 400, 'validation_failed');
      expectProblem(await server.request('POST', '/api/test/http/webhook', { rawBody: '{"event":', headers }), 400, 'malformed_body');
      expectProblem(await server.request('POST', '/api/test/http/webhook', { rawBody: '"push"', headers }), 400, 'malformed_body');
    });

    it('an operation without x-raw-body gets no raw bytes', async () => {
      const res = await server.request('POST', '/api/test/http/json', { body: { event: 'push' } });
      expect(res.body).to.deep.equal({ event: 'push', rawBody: null });
    });
  });
});
