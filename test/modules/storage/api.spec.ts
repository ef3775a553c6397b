import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { contract } from '../../helpers/contract.ts';
import { buildApiKey, buildMemberSession, permissionMap } from '../../helpers/factories.ts';
import { asSuperuser, cookieHeader, startTestServer, type TestResponse, type TestServer } from '../../helpers/server.ts';
import { GIF, PNG } from '../../http/fixture.ts';
import { PURPOSES } from '../../../server/modules/storage/purposes.ts';

/**
 * The storage module over HTTP (server/modules/storage/handlers.ts): upload (form and raw), list, get,
 * download with ETag/304/410, the public asset route, the superuser object operations and the seed-asset
 * upload. Every response is checked against openapi.yaml by the test server.
 */

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** A PNG with extra bytes after IEND: still a PNG by its signature, and distinct content per test. */
const png = (salt: string) => Buffer.concat([PNG, Buffer.from(salt)]);

function form(fields: Record<string, string>, file?: { bytes: Buffer; type: string; name: string }): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  if (file) data.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return data;
}

function expectProblem(res: TestResponse, status: number, code?: string) {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
  if (code) expect(res.body.code, res.text).to.equal(code);
}

describe('storage API', () => {
  let server: TestServer;
  let staff: { token: string; accountId: string };

  before(async () => {
    server = await startTestServer();
    const session = await buildMemberSession('member');
    staff = { token: session.token, accountId: session.account.id };
  });
  after(() => server.close());

  const asStaff = () => cookieHeader(staff.token);
  const upload = (purpose: string, file: { bytes: Buffer; type: string; name: string }, headers: Record<string, string> = asStaff()) =>
    server.request('POST', '/api/storage/blobs', { rawBody: form({ purpose }, file), headers });

  describe('access', () => {
    // Each operation: anonymous → 401; an API key without the operation's permission → 403.
    const cases: Array<{ method: string; path: string; permission: string }> = [
      { method: 'GET', path: '/api/storage/blobs', permission: 'storage:read' },
      { method: 'POST', path: '/api/storage/blobs', permission: 'storage:write' },
      { method: 'GET', path: '/api/storage/blobs/00000000-0000-4000-8000-000000000000', permission: 'storage:read' },
      { method: 'GET', path: '/api/storage/blobs/00000000-0000-4000-8000-000000000000/content', permission: 'storage:read' },
      { method: 'GET', path: '/api/sudo/storage/objects', permission: 'storage-objects:read' },
      { method: 'DELETE', path: '/api/sudo/storage/blobs/00000000-0000-4000-8000-000000000000/object', permission: 'storage-objects:delete' },
      { method: 'POST', path: '/api/sudo/storage/cleanup', permission: 'storage-objects:cleanup' },
      { method: 'POST', path: '/api/sudo/upload-seed-asset', permission: 'storage:seed' },
    ];

    it('declares the permissions these cases use', () => {
      for (const { method, path, permission } of cases) {
        const op = contract.operations.find((o) => o.method === method && new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
        expect(op?.permission, `${method} ${path}`).to.equal(permission);
      }
    });

    for (const { method, path, permission } of cases) {
      it(`${method} ${path}: 401 anonymous, 403 for a key without ${permission}`, async () => {
        const body = method === 'POST' && path.endsWith('cleanup') ? { dryRun: true } : undefined;
        expectProblem(await server.request(method, path, { body }), 401, 'unauthenticated');
        const { key } = await buildApiKey({ permissions: permissionMap('matrix-probe:read') });
        const denied = await server.request(method, path, { body, headers: { 'x-api-key': key } });
        expectProblem(denied, 403);
        expect(['missing_permission', 'api_key_not_allowed']).to.include(denied.body.code);
      });
    }

    it('lets a key holding storage:read and storage:write upload and read, but never reach the /api/sudo/ storage operations', async () => {
      const { key } = await buildApiKey({ permissions: permissionMap('storage:read', 'storage:write', 'storage-objects:read', 'storage-objects:delete', 'storage-objects:cleanup', 'storage:seed') });
      const headers = { 'x-api-key': key };
      const created = await upload('attachment', { bytes: png('key'), type: 'image/png', name: 'k.png' }, headers);
      expect(created.status, created.text).to.equal(201);
      expect(created.body.uploadedByAccountId).to.equal(null);
      expect((await server.request('GET', `/api/storage/blobs/${created.body.id}`, { headers })).status).to.equal(200);
      expectProblem(await server.request('GET', '/api/sudo/storage/objects', { headers }), 403, 'api_key_not_allowed');
      expectProblem(await server.request('DELETE', `/api/sudo/storage/blobs/${created.body.id}/object`, { headers }), 403, 'api_key_not_allowed');
      expectProblem(await server.request('POST', '/api/sudo/storage/cleanup', { body: { dryRun: true }, headers }), 403, 'api_key_not_allowed');
      const seed = await server.request('POST', '/api/sudo/upload-seed-asset', { rawBody: form({}, { bytes: png('seed-key'), type: 'image/png', name: 's.png' }), headers });
      expectProblem(seed, 403, 'api_key_not_allowed');
    });

    it('keeps staff out of the superuser operations (403)', async () => {
      expectProblem(await server.request('GET', '/api/sudo/storage/objects', { headers: asStaff() }), 403, 'insufficient_role');
      expectProblem(await server.request('POST', '/api/sudo/storage/cleanup', { body: { dryRun: true }, headers: asStaff() }), 403, 'insufficient_role');
    });
  });

  describe('upload, list, get, download, delete', () => {
    it('upload → list → get → download (bytes equal) → 304 with If-None-Match → delete the object → 410', async () => {
      const bytes = png('round-trip');
      const created = await upload('show-image', { bytes, type: 'image/png', name: 'poster.png' });
      expect(created.status, created.text).to.equal(201);
      expect(created.body).to.include({ purpose: 'show-image', contentType: 'image/png', byteSize: bytes.length, sha256: sha256(bytes), originalFilename: 'poster.png', uploadedByAccountId: staff.accountId, objectDeletedAt: null });
      expect(created.body.key).to.match(/^show-image\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.png$/);
      const id = created.body.id;

      const listed = await server.request('GET', '/api/storage/blobs?purpose=show-image&contentType=image/png&limit=5', { headers: asStaff() });
      expect(listed.status, listed.text).to.equal(200);
      expect(listed.body.items.map((b: { id: string }) => b.id)).to.include(id);
      expect(listed.body).to.include({ limit: 5, offset: 0 });
      const other = await server.request('GET', '/api/storage/blobs?purpose=sticker', { headers: asStaff() });
      expect(other.body.items.map((b: { id: string }) => b.id)).to.not.include(id);

      const got = await server.request('GET', `/api/storage/blobs/${id}`, { headers: asStaff() });
      expect(got.status).to.equal(200);
      expect(got.body).to.deep.equal(created.body);

      const download = await server.request('GET', `/api/storage/blobs/${id}/content`, { headers: asStaff() });
      expect(download.status).to.equal(200);
      expect(download.bytes.equals(bytes)).to.equal(true);
      expect(download.headers.get('content-type')).to.equal('image/png');
      expect(download.headers.get('content-length')).to.equal(String(bytes.length));
      expect(download.headers.get('etag')).to.equal(`"${sha256(bytes)}"`);
      expect(download.headers.get('content-disposition')).to.equal('attachment; filename="poster.png"');
      expect(download.headers.get('x-content-type-options')).to.equal('nosniff');

      const again = await server.request('GET', `/api/storage/blobs/${id}/content`, { headers: { ...asStaff(), 'if-none-match': download.headers.get('etag')! } });
      expect(again.status).to.equal(304);
      expect(again.bytes.length).to.equal(0);
      expect(again.headers.get('etag')).to.equal(download.headers.get('etag'));

      const deleted = await server.request('DELETE', `/api/sudo/storage/blobs/${id}/object`, { headers: asSuperuser });
      expect(deleted.status, deleted.text).to.equal(200);
      expect(deleted.body.objectDeletedAt).to.be.a('string');
      expect(await server.app.context.storage.head(created.body.key)).to.equal(undefined);
      // The row stays.
      expect((await server.request('GET', `/api/storage/blobs/${id}`, { headers: asStaff() })).body.objectDeletedAt).to.equal(deleted.body.objectDeletedAt);
      expectProblem(await server.request('GET', `/api/storage/blobs/${id}/content`, { headers: asStaff() }), 410, 'object_deleted');
      // Deleting again changes nothing.
      const twice = await server.request('DELETE', `/api/sudo/storage/blobs/${id}/object`, { headers: asSuperuser });
      expect(twice.body.objectDeletedAt).to.equal(deleted.body.objectDeletedAt);
      const hidden = await server.request('GET', '/api/storage/blobs?purpose=show-image&includeDeleted=false', { headers: asStaff() });
      expect(hidden.body.items.map((b: { id: string }) => b.id)).to.not.include(id);
    });

    it('takes the raw bytes with purpose (and filename) in the query', async () => {
      const bytes = png('raw');
      const res = await server.request('POST', '/api/storage/blobs?purpose=sticker&filename=sticker.png', { rawBody: bytes, headers: { ...asStaff(), 'content-type': 'image/png' } });
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.include({ purpose: 'sticker', contentType: 'image/png', sha256: sha256(bytes), originalFilename: 'sticker.png' });
      const text = await server.request('POST', '/api/storage/blobs?purpose=attachment', { rawBody: 'a,b\n1,2\n', headers: { ...asSuperuser, 'content-type': 'text/csv' } });
      expect(text.status, text.text).to.equal(201);
      expect(text.body).to.include({ contentType: 'text/csv', uploadedByAccountId: null, originalFilename: null });
    });

    it('answers 400 for bad input: no purpose, an unknown purpose, purpose twice, a bad id, a bad limit', async () => {
      expectProblem(await server.request('POST', '/api/storage/blobs', { rawBody: png('x'), headers: { ...asStaff(), 'content-type': 'image/png' } }), 400, 'validation_failed');
      expectProblem(await upload('poster', { bytes: png('x'), type: 'image/png', name: 'x.png' }), 400, 'validation_failed');
      const both = await server.request('POST', '/api/storage/blobs?purpose=sticker', { rawBody: form({ purpose: 'sticker' }, { bytes: png('x'), type: 'image/png', name: 'x.png' }), headers: asStaff() });
      expectProblem(both, 400, 'validation_failed');
      expectProblem(await server.request('POST', '/api/storage/blobs', { rawBody: form({ purpose: 'sticker' }), headers: asStaff() }), 400, 'validation_failed');
      expectProblem(await server.request('GET', '/api/storage/blobs/not-a-uuid', { headers: asStaff() }), 400, 'validation_failed');
      expectProblem(await server.request('GET', '/api/storage/blobs?limit=0', { headers: asStaff() }), 400, 'validation_failed');
      expectProblem(await server.request('GET', '/api/storage/blobs/00000000-0000-4000-8000-000000000000', { headers: asStaff() }), 404, 'not_found');
    });

    it('refuses bytes that are not the declared type (400 file_type_mismatch), storing nothing', async () => {
      const before = (await server.request('GET', '/api/storage/blobs', { headers: asStaff() })).body.total;
      const res = await upload('show-image', { bytes: GIF, type: 'image/png', name: 'fake.png' });
      expectProblem(res, 400, 'file_type_mismatch');
      const raw = await server.request('POST', '/api/storage/blobs?purpose=show-image', { rawBody: Buffer.from('not an image'), headers: { ...asStaff(), 'content-type': 'image/png' } });
      expectProblem(raw, 400, 'file_type_mismatch');
      expect((await server.request('GET', '/api/storage/blobs', { headers: asStaff() })).body.total).to.equal(before);
    });

    it('answers 415 for a type the purpose (or the operation) does not take', async () => {
      expectProblem(await upload('sticker', { bytes: GIF, type: 'image/gif', name: 'a.gif' }), 415, 'unsupported_media_type');
      expectProblem(await upload('sticker', { bytes: Buffer.from('hello'), type: 'application/zip', name: 'a.zip' }), 415, 'unsupported_media_type');
      const raw = await server.request('POST', '/api/storage/blobs?purpose=sticker', { rawBody: 'x', headers: { ...asStaff(), 'content-type': 'application/zip' } });
      expectProblem(raw, 415, 'unsupported_media_type');
    });

    it("answers 413 past the purpose's limit (sticker: 2 MiB), and declares the largest purpose limit on the operation", async () => {
      const big = Buffer.concat([PNG, Buffer.alloc(PURPOSES.sticker.maxBytes)]);
      expectProblem(await upload('sticker', { bytes: big, type: 'image/png', name: 'big.png' }), 413, 'payload_too_large');
      const op = contract.operations.find((o) => o.operationId === 'uploadBlob')!;
      const largest = Math.max(...Object.values(PURPOSES).map((rule) => rule.maxBytes));
      expect(op.requestBody!.maxBytes).to.be.at.least(largest).and.below(largest + 128 * 1024);
      const huge = await server.request('POST', '/api/storage/blobs?purpose=seed-asset', {
        rawBody: Buffer.alloc(op.requestBody!.maxBytes! + 1),
        headers: { ...asStaff(), 'content-type': 'application/pdf' },
      });
      expectProblem(huge, 413, 'payload_too_large');
    });
  });

  describe('public assets', () => {
    it('serves a public purpose by key with caching headers, ETag and 304; HEAD too', async () => {
      const bytes = png('public');
      const created = await upload('sticker', { bytes, type: 'image/png', name: 's.png' });
      const path = `/api/public/assets?key=${encodeURIComponent(created.body.key)}`;
      const res = await server.request('GET', path);
      expect(res.status, res.text).to.equal(200);
      expect(res.bytes.equals(bytes)).to.equal(true);
      expect(res.headers.get('content-type')).to.equal('image/png');
      expect(res.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      expect(res.headers.get('etag')).to.equal(`"${sha256(bytes)}"`);
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      const cached = await server.request('GET', path, { headers: { 'if-none-match': res.headers.get('etag')! } });
      expect(cached.status).to.equal(304);
      expect(cached.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      const head = await server.request('HEAD', path);
      expect(head.status).to.equal(200);
      expect(head.headers.get('content-length')).to.equal(String(bytes.length));
    });

    it('never serves a private purpose, an unknown key or a deleted object (404, also with a matching ETag)', async () => {
      const bytes = png('private');
      const privateBlob = await upload('attachment', { bytes, type: 'image/png', name: 'p.png' });
      const hidden = await server.request('GET', `/api/public/assets?key=${encodeURIComponent(privateBlob.body.key)}`);
      expectProblem(hidden, 404, 'not_found');
      const withTag = await server.request('GET', `/api/public/assets?key=${encodeURIComponent(privateBlob.body.key)}`, { headers: { 'if-none-match': `"${sha256(bytes)}"` } });
      expectProblem(withTag, 404, 'not_found');
      expectProblem(await server.request('GET', '/api/public/assets?key=sticker/2026/01/nothing.png'), 404, 'not_found');

      const gone = await upload('show-image', { bytes: png('gone'), type: 'image/png', name: 'g.png' });
      await server.request('DELETE', `/api/sudo/storage/blobs/${gone.body.id}/object`, { headers: asSuperuser });
      expectProblem(await server.request('GET', `/api/public/assets?key=${encodeURIComponent(gone.body.key)}`, { headers: { 'if-none-match': `"${gone.body.sha256}"` } }), 404, 'not_found');
    });

    it('answers 400 for a key that is not a storage key, or no key', async () => {
      expectProblem(await server.request('GET', '/api/public/assets?key=../etc/passwd'), 400, 'validation_failed');
      expectProblem(await server.request('GET', '/api/public/assets'), 400, 'validation_failed');
    });
  });

  describe('superuser object operations', () => {
    it('lists objects in the store, a page at a time', async () => {
      await upload('attachment', { bytes: png('list-1'), type: 'image/png', name: '1.png' });
      await upload('attachment', { bytes: png('list-2'), type: 'image/png', name: '2.png' });
      const first = await server.request('GET', '/api/sudo/storage/objects?prefix=attachment/&limit=1', { headers: asSuperuser });
      expect(first.status, first.text).to.equal(200);
      expect(first.body.items).to.have.length(1);
      expect(first.body.items[0].key).to.match(/^attachment\//);
      expect(first.body.nextStartAfter).to.equal(first.body.items[0].key);
      const second = await server.request('GET', `/api/sudo/storage/objects?prefix=attachment/&limit=1&startAfter=${encodeURIComponent(first.body.nextStartAfter)}`, { headers: asSuperuser });
      expect(second.body.items[0].key > first.body.items[0].key).to.equal(true);
      expectProblem(await server.request('GET', '/api/sudo/storage/objects?prefix=../x', { headers: asSuperuser }), 400, 'validation_failed');
    });

    it('cleans up: the dry run reports and changes nothing; the real run deletes orphans and marks missing rows', async () => {
      const storage = server.app.context.storage;
      await storage.put('attachment/2020/01/orphan.txt', Buffer.from('orphan'), { contentType: 'text/plain' });
      const lost = await upload('attachment', { bytes: png('lost'), type: 'image/png', name: 'lost.png' });
      await storage.delete(lost.body.key);

      expectProblem(await server.request('POST', '/api/sudo/storage/cleanup', { body: {}, headers: asSuperuser }), 400, 'validation_failed');

      const dry = await server.request('POST', '/api/sudo/storage/cleanup', { body: { dryRun: true, graceSeconds: 0 }, headers: asSuperuser });
      expect(dry.status, dry.text).to.equal(200);
      expect(dry.body.dryRun).to.equal(true);
      expect(dry.body.orphanObjectsDeleted).to.include('attachment/2020/01/orphan.txt');
      expect(dry.body.rowsMarkedMissing).to.include(lost.body.id);
      expect(await storage.head('attachment/2020/01/orphan.txt')).to.not.equal(undefined);

      const kept = await server.request('POST', '/api/sudo/storage/cleanup', { body: { dryRun: false }, headers: asSuperuser });
      expect(kept.body.orphanObjectsKeptRecent, 'younger than the default grace period').to.include('attachment/2020/01/orphan.txt');

      const real = await server.request('POST', '/api/sudo/storage/cleanup', { body: { dryRun: false, graceSeconds: 0 }, headers: asSuperuser });
      expect(real.status, real.text).to.equal(200);
      expect(real.body.dryRun).to.equal(false);
      expect(real.body.orphanObjectsDeleted).to.include('attachment/2020/01/orphan.txt');
      expect(await storage.head('attachment/2020/01/orphan.txt')).to.equal(undefined);
      const row = await server.request('GET', `/api/storage/blobs/${lost.body.id}`, { headers: asStaff() });
      expect(row.body.objectDeletedAt).to.be.a('string');
      expectProblem(await server.request('GET', `/api/storage/blobs/${lost.body.id}/content`, { headers: asStaff() }), 410, 'object_deleted');
    });
  });

  describe('POST /api/sudo/upload-seed-asset', () => {
    it('stores a seed asset (201), answers the same record for the same bytes (200), and a new one for other bytes', async () => {
      const bytes = Buffer.from('{"venue":"seed"}\n');
      const send = (body: Buffer, type = 'application/json') =>
        server.request('POST', '/api/sudo/upload-seed-asset', { rawBody: form({}, { bytes: body, type, name: 'venue.json' }), headers: asSuperuser });
      const first = await send(bytes);
      expect(first.status, first.text).to.equal(201);
      expect(first.body).to.include({ purpose: 'seed-asset', contentType: 'application/json', sha256: sha256(bytes), originalFilename: 'venue.json', uploadedByAccountId: null });
      const second = await send(bytes);
      expect(second.status, second.text).to.equal(200);
      expect(second.body.id).to.equal(first.body.id);
      const seeds = await server.request('GET', '/api/storage/blobs?purpose=seed-asset', { headers: asSuperuser });
      expect(seeds.body.items.filter((b: { sha256: string }) => b.sha256 === sha256(bytes))).to.have.length(1);
      const other = await send(Buffer.from('{"venue":"other"}\n'));
      expect(other.status).to.equal(201);
      expect(other.body.id).to.not.equal(first.body.id);

      // Once its object is deleted, the same bytes are stored again.
      await server.request('DELETE', `/api/sudo/storage/blobs/${first.body.id}/object`, { headers: asSuperuser });
      const again = await send(bytes);
      expect(again.status).to.equal(201);
      expect(again.body.id).to.not.equal(first.body.id);
    });

    it('checks the bytes like any upload: 400 mismatch, 415 type, 400 no file; staff is 403', async () => {
      const send = (fields: Record<string, string>, file?: { bytes: Buffer; type: string; name: string }, headers: Record<string, string> = asSuperuser) =>
        server.request('POST', '/api/sudo/upload-seed-asset', { rawBody: form(fields, file), headers });
      expectProblem(await send({}, { bytes: GIF, type: 'image/png', name: 'x.png' }), 400, 'file_type_mismatch');
      expectProblem(await send({}, { bytes: Buffer.from('x'), type: 'application/zip', name: 'x.zip' }), 415, 'unsupported_media_type');
      expectProblem(await send({ purpose: 'sticker' }), 400, 'validation_failed');
      expectProblem(await send({}, { bytes: png('staff'), type: 'image/png', name: 'x.png' }, asStaff()), 403, 'insufficient_role');
    });
  });
});
