import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { expect } from 'chai';
import type { Problem } from '../../../server/platform/http/problem.ts';
import { Account } from '../../../server/modules/accounts/models.ts';
import { cleanupStorage } from '../../../server/modules/storage/commands/cleanupStorage.ts';
import { deleteBlobObject } from '../../../server/modules/storage/commands/deleteBlobObject.ts';
import { uploadBlob } from '../../../server/modules/storage/commands/uploadBlob.ts';
import { StorageBlob } from '../../../server/modules/storage/models.ts';
import { presentBlob } from '../../../server/modules/storage/presenters.ts';
import { PURPOSES } from '../../../server/modules/storage/purposes.ts';
import { findPublicBlob, getBlob, listBlobs, openDownload } from '../../../server/modules/storage/queries.ts';
import { resetData, testDatabase } from '../../helpers/database.ts';
import { buildAccount } from '../../helpers/factories.ts';
import { storageKinds, type TestStorage } from '../../helpers/storage.ts';
import { GIF, PNG } from '../../http/fixture.ts';

/**
 * The storage service and its commands (server/modules/storage/) over the database and each driver: upload
 * (limits, magic bytes, SHA-256 while streaming, nothing left behind), list/get, download (ETag, 304),
 * object delete keeping the row, and the hard cleanup's report.
 */

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function rejection(promise: Promise<unknown>): Promise<Problem> {
  try {
    await promise;
  } catch (err) {
    return err as Problem;
  }
  throw new Error('expected a rejection');
}

for (const { kind, start } of storageKinds) {
  describe(`storage service on ${kind}`, () => {
    let store: TestStorage;
    before(async () => {
      await testDatabase();
      store = await start();
    });
    after(() => store.close());
    beforeEach(async () => {
      await resetData((await testDatabase()).knex);
      await store.clear();
    });

    it('uploads a streamed PNG: key by purpose, SHA-256 and size computed while streaming, the row and the object', async () => {
      const account = await buildAccount();
      const blob = await uploadBlob(store.driver, {
        purpose: 'show-image',
        contentType: 'image/png',
        body: Readable.from([PNG.subarray(0, 10), PNG.subarray(10)]),
        originalFilename: 'poster.png',
        uploadedByAccountId: account.id,
      });
      expect(blob.key).to.match(/^show-image\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.png$/);
      expect(presentBlob(await getBlob(blob.id))).to.include({
        purpose: 'show-image',
        contentType: 'image/png',
        byteSize: PNG.length,
        sha256: sha256(PNG),
        originalFilename: 'poster.png',
        uploadedByAccountId: account.id,
        objectDeletedAt: null,
      });
      const object = await store.driver.get(blob.key);
      expect((await buffer(object!.stream)).equals(PNG)).to.equal(true);
    });

    it("refuses bytes that are not the declared type (400), a type the purpose does not take (415), and past the purpose's limit (413), storing nothing", async () => {
      expect((await rejection(uploadBlob(store.driver, { purpose: 'sticker', contentType: 'image/png', body: GIF }))).code).to.equal('file_type_mismatch');
      expect((await rejection(uploadBlob(store.driver, { purpose: 'sticker', contentType: 'image/gif', body: GIF }))).status).to.equal(415);
      const limit = PURPOSES.sticker.maxBytes;
      const tooBig = Readable.from((function* () {
        yield PNG;
        for (let sent = 0; sent <= limit; sent += 64 * 1024) yield Buffer.alloc(64 * 1024);
      })());
      const problem = await rejection(uploadBlob(store.driver, { purpose: 'sticker', contentType: 'image/png', body: tooBig }));
      expect(problem.status).to.equal(413);
      expect(await StorageBlob.query().resultSize()).to.equal(0);
      expect((await store.driver.list('')).objects).to.deep.equal([]);
    });

    it('takes text types that have no signature, but not a binary file declared as text', async () => {
      const csv = await uploadBlob(store.driver, { purpose: 'attachment', contentType: 'text/csv', body: Buffer.from('a,b\n1,2\n') });
      expect(csv.key).to.match(/\.csv$/);
      expect((await rejection(uploadBlob(store.driver, { purpose: 'attachment', contentType: 'text/plain', body: PNG }))).code).to.equal('file_type_mismatch');
    });

    it('lists rows with filters and paging; sets the uploader to null when the account goes', async () => {
      const account = await buildAccount();
      await uploadBlob(store.driver, { purpose: 'show-image', contentType: 'image/png', body: PNG, uploadedByAccountId: account.id });
      await uploadBlob(store.driver, { purpose: 'sticker', contentType: 'image/png', body: PNG });
      await uploadBlob(store.driver, { purpose: 'attachment', contentType: 'text/plain', body: Buffer.from('hi') });
      expect((await listBlobs({ limit: 10, offset: 0 })).total).to.equal(3);
      const images = await listBlobs({ contentType: 'image/png', limit: 1, offset: 0 });
      expect(images.total).to.equal(2);
      expect(images.items).to.have.length(1);
      const stickers = await listBlobs({ purpose: 'sticker', limit: 10, offset: 0 });
      expect(stickers.items.map((b) => b.purpose)).to.deep.equal(['sticker']);
      await Account.query().deleteById(account.id);
      const [image] = (await listBlobs({ purpose: 'show-image', limit: 10, offset: 0 })).items;
      expect(image.uploadedByAccountId).to.equal(null);
    });

    it('downloads the bytes with their ETag and size, and answers a matching If-None-Match as not modified', async () => {
      const blob = await uploadBlob(store.driver, { purpose: 'show-image', contentType: 'image/png', body: PNG });
      const download = await openDownload(store.driver, blob);
      expect(download.notModified).to.equal(false);
      if (download.notModified) return;
      expect(download.etag).to.equal(`"${sha256(PNG)}"`);
      expect(download.size).to.equal(PNG.length);
      expect((await buffer(download.stream)).equals(PNG)).to.equal(true);
      expect((await openDownload(store.driver, blob, `W/"x", "${sha256(PNG)}"`)).notModified).to.equal(true);
    });

    it('deletes the object only: the row stays, marked; download is 410 and the public lookup 404', async () => {
      const blob = await uploadBlob(store.driver, { purpose: 'sticker', contentType: 'image/png', body: PNG });
      expect((await findPublicBlob(blob.key)).id).to.equal(blob.id);
      const deleted = await deleteBlobObject(store.driver, blob.id);
      expect(deleted.objectDeletedAt).to.be.instanceOf(Date);
      expect(await store.driver.head(blob.key)).to.equal(undefined);
      expect((await getBlob(blob.id)).objectDeletedAt).to.not.equal(null);
      expect((await rejection(openDownload(store.driver, await getBlob(blob.id)))).status).to.equal(410);
      expect((await rejection(findPublicBlob(blob.key))).status).to.equal(404);
      expect((await deleteBlobObject(store.driver, blob.id)).id).to.equal(blob.id); // again: no-op
    });

    it('only public purposes are served by key', async () => {
      const attachment = await uploadBlob(store.driver, { purpose: 'attachment', contentType: 'image/png', body: PNG });
      expect((await rejection(findPublicBlob(attachment.key))).status).to.equal(404);
    });

    it('cleanup deletes objects no row names (past the grace period), marks rows whose object is gone, and reports it', async () => {
      const kept = await uploadBlob(store.driver, { purpose: 'show-image', contentType: 'image/png', body: PNG });
      const lost = await uploadBlob(store.driver, { purpose: 'show-image', contentType: 'image/png', body: PNG });
      await store.driver.delete(lost.key); // gone behind the service's back
      await store.driver.put('show-image/orphan.png', PNG, { contentType: 'image/png' });

      const later = new Date(Date.now() + 2 * 3600 * 1000);
      const dry = await cleanupStorage(store.driver, { dryRun: true, now: later });
      expect(dry).to.deep.include({ dryRun: true, objectsScanned: 2, rowsScanned: 2, orphanObjectsDeleted: ['show-image/orphan.png'], rowsMarkedMissing: [lost.id] });
      expect(await store.driver.head('show-image/orphan.png')).to.not.equal(undefined);
      expect((await getBlob(lost.id)).objectDeletedAt).to.equal(null);

      const recent = await cleanupStorage(store.driver);
      expect(recent.orphanObjectsKeptRecent).to.deep.equal(['show-image/orphan.png']);
      expect(recent.orphanObjectsDeleted).to.deep.equal([]);

      const report = await cleanupStorage(store.driver, { now: later });
      expect(report.orphanObjectsDeleted).to.deep.equal(['show-image/orphan.png']);
      expect(await store.driver.head('show-image/orphan.png')).to.equal(undefined);
      expect((await getBlob(lost.id)).objectDeletedAt).to.be.instanceOf(Date);
      expect((await getBlob(kept.id)).objectDeletedAt).to.equal(null);
      expect(await store.driver.head(kept.key)).to.not.equal(undefined);
    });
  });
}
