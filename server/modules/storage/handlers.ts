import type { Call, OperationHandlers } from '../../platform/http/handler.ts';
import { etagMatches, json, notModified, stream } from '../../platform/http/handler.ts';
import { NotFound } from '../../platform/http/problem.ts';
import { staffActor } from '../../domain/actors.ts';
import { announceObjectsGone } from './commands/announceObjectsGone.ts';
import { cleanupStorage } from './commands/cleanupStorage.ts';
import { deleteBlobObject } from './commands/deleteBlobObject.ts';
import { uploadBlob } from './commands/uploadBlob.ts';
import { uploadInputFrom } from './storeBlob.ts';
import { uploadSeedAsset } from './commands/uploadSeedAsset.ts';
import type { BlobPurpose } from './models.ts';
import { presentBlob, presentCleanupReport, presentStoreObject } from './presenters.ts';
import { blobETag, findPublicBlob, getBlob, listBlobs, listStoreObjects, openDownload } from './queries.ts';

/** Staff downloads: revalidated with the ETag every time (a blob's object can be deleted). */
const PRIVATE_CACHE = 'private, no-cache';
/**
 * Public assets: a key is never reused and its bytes never change, so a year, immutable. A deleted object's
 * copies may live on in caches until then; the route itself answers 404 at once.
 */
const PUBLIC_CACHE = 'public, max-age=31536000, immutable';

/** The uploader: the signed-in dashboard account; superuser tokens and API keys upload as nobody. */
const uploaderOf = (call: Call) => (call.auth.authSource === 'session' ? (call.auth.identity.accountId ?? null) : null);

export const handlers = {
  async listBlobs({ query }) {
    const page = await listBlobs({ ...query, includeDeleted: query.includeDeleted, limit: query.limit ?? 20, offset: query.offset ?? 0 });
    return json(200, { items: page.items.map(presentBlob), total: page.total, limit: query.limit ?? 20, offset: query.offset ?? 0 });
  },

  async uploadBlob(call) {
    const { app, query } = call;
    const request = { file: call.file('file'), formPurpose: (call.body as { purpose?: BlobPurpose } | undefined)?.purpose, query, contentType: call.contentType, rawBody: call.rawBody };
    const blob = await uploadBlob(app.storage, uploadInputFrom({ ...request, uploadedByAccountId: uploaderOf(call) }));
    return json(201, presentBlob(blob));
  },

  async getBlob({ params }) {
    return json(200, presentBlob(await getBlob(params.blobId)));
  },

  async downloadBlob(call) {
    const { app, params } = call;
    const blob = await getBlob(params.blobId);
    const download = await openDownload(app.storage, blob, call.header('if-none-match') || undefined);
    const headers = { ETag: download.etag, 'Cache-Control': PRIVATE_CACHE, 'X-Content-Type-Options': 'nosniff' };
    if (download.notModified) return notModified(headers);
    return stream<200>(download.stream, blob.contentType, {
      length: download.size,
      filename: blob.originalFilename ?? blob.key.split('/').pop()!,
      headers,
    });
  },

  async getPublicAsset(call) {
    const { app, query } = call;
    const blob = await findPublicBlob(query.key);
    const etag = blobETag(blob);
    const headers = { ETag: etag, 'Cache-Control': PUBLIC_CACHE, 'X-Content-Type-Options': 'nosniff' };
    if (etagMatches(call.header('if-none-match') || undefined, etag)) return notModified(headers);
    // An object gone from the store without its row being marked is 404 here too (never 410 to the public).
    const object = await app.storage.get(blob.key);
    if (!object) throw NotFound('No such asset.');
    return stream<200>(object.stream, blob.contentType, { length: object.size, headers });
  },

  async listStoreObjects({ app, query }) {
    const page = await listStoreObjects(app.storage, query.prefix ?? '', query.limit ?? 100, query.startAfter);
    return json(200, { items: page.objects.map(presentStoreObject), nextStartAfter: page.nextStartAfter ?? null });
  },

  async deleteBlobObject({ app, auth, params }) {
    const blob = await deleteBlobObject(app.storage, params.blobId);
    // A show's images leave the public catalog with their object.
    await announceObjectsGone(app, staffActor(auth), params.blobId);
    return json(200, presentBlob(blob));
  },

  async cleanupStorage({ app, auth, body }) {
    const report = await cleanupStorage(app.storage, { dryRun: body.dryRun, graceSeconds: body.graceSeconds });
    if (!body.dryRun) await announceObjectsGone(app, staffActor(auth), null);
    return json(200, presentCleanupReport(report));
  },

  async uploadSeedAsset(call) {
    const file = call.file('file')!;
    const { blob, created } = await uploadSeedAsset(call.app.storage, {
      contentType: file.contentType,
      bytes: file.bytes,
      originalFilename: file.filename || null,
      uploadedByAccountId: uploaderOf(call),
    });
    return json(created ? 201 : 200, presentBlob(blob));
  },
} satisfies Partial<OperationHandlers>;
