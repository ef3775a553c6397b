import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { expect } from 'chai';
import { InvalidStorageKey, listAll } from '../../server/platform/storage/index.ts';
import { localTestStorage, storageKinds, type TestStorage } from '../helpers/storage.ts';

/**
 * The storage driver contract (server/platform/storage/driver.ts), one suite run against both drivers: local disk and
 * S3-compatible (the S3 driver against s3rver on a loopback port).
 */
for (const { kind, start } of storageKinds) {
  describe(`storage driver: ${kind}`, () => {
    let store: TestStorage;
    before(async () => {
      store = await start();
    });
    after(() => store.close());
    beforeEach(() => store.clear());

    it('puts a Buffer and gets it back as a stream with its size; head tells the size without the bytes', async () => {
      const info = await store.driver.put('show-image/2026/a.txt', Buffer.from('hello bytes'), { contentType: 'text/plain' });
      expect(info).to.include({ key: 'show-image/2026/a.txt', size: 11 });
      const got = await store.driver.get('show-image/2026/a.txt');
      expect(got!.size).to.equal(11);
      expect(await text(got!.stream)).to.equal('hello bytes');
      const head = await store.driver.head('show-image/2026/a.txt');
      expect(head).to.include({ key: 'show-image/2026/a.txt', size: 11 });
      expect(head!.lastModified).to.be.instanceOf(Date);
    });

    it('puts a stream, and a second put under the key replaces the object', async () => {
      await store.driver.put('k/stream.bin', Readable.from([Buffer.from('one '), Buffer.from('two')]), { contentType: 'application/octet-stream' });
      expect(await text((await store.driver.get('k/stream.bin'))!.stream)).to.equal('one two');
      await store.driver.put('k/stream.bin', Buffer.from('three'), { contentType: 'application/octet-stream' });
      expect(await text((await store.driver.get('k/stream.bin'))!.stream)).to.equal('three');
    });

    it('leaves nothing behind when the stream fails', async () => {
      const failing = new Readable({
        read() {
          this.push(Buffer.alloc(1000));
          this.destroy(new Error('the client went away'));
        },
      });
      let failure: unknown;
      await store.driver.put('k/broken.bin', failing, { contentType: 'application/octet-stream' }).catch((err) => (failure = err));
      expect(failure).to.be.instanceOf(Error);
      expect(await store.driver.head('k/broken.bin')).to.equal(undefined);
      expect((await store.driver.list('')).objects).to.deep.equal([]);
    });

    it('answers a missing key with undefined (get, head) and false (delete); delete answers true once', async () => {
      expect(await store.driver.get('no/such')).to.equal(undefined);
      expect(await store.driver.head('no/such')).to.equal(undefined);
      expect(await store.driver.delete('no/such')).to.equal(false);
      await store.driver.put('yes/such', Buffer.from('x'), { contentType: 'text/plain' });
      expect(await store.driver.delete('yes/such')).to.equal(true);
      expect(await store.driver.delete('yes/such')).to.equal(false);
      expect(await store.driver.head('yes/such')).to.equal(undefined);
    });

    it('lists by prefix in key order, a page at a time', async () => {
      for (const key of ['b/2', 'a/1', 'b/1', 'b/3', 'c/1', 'b2/1']) await store.driver.put(key, Buffer.from(key), { contentType: 'text/plain' });
      const first = await store.driver.list('b/', { limit: 2 });
      expect(first.objects.map((o) => o.key)).to.deep.equal(['b/1', 'b/2']);
      expect(first.nextStartAfter).to.equal('b/2');
      const second = await store.driver.list('b/', { limit: 2, startAfter: first.nextStartAfter });
      expect(second.objects.map((o) => o.key)).to.deep.equal(['b/3']);
      expect(second.nextStartAfter).to.equal(undefined);
      expect(second.objects[0].size).to.equal(3);
      const all: string[] = [];
      for await (const object of listAll(store.driver)) all.push(object.key);
      expect(all).to.deep.equal(['a/1', 'b/1', 'b/2', 'b/3', 'b2/1', 'c/1']);
    });

    it('refuses unsafe keys (traversal, absolute, hidden, backslash, empty) before touching the store', async () => {
      for (const key of ['../etc/passwd', 'a/../../b', '/abs', '.hidden', 'a/.tmp/x', 'a\\b', '', 'a//b', 'a/']) {
        for (const attempt of [
          () => store.driver.put(key, Buffer.from('x'), { contentType: 'text/plain' }),
          () => store.driver.get(key),
          () => store.driver.head(key),
          () => store.driver.delete(key),
        ]) {
          let failure: unknown;
          await attempt().catch((err) => (failure = err));
          expect(failure, JSON.stringify(key)).to.be.instanceOf(InvalidStorageKey);
        }
      }
      let listed: unknown;
      await store.driver.list('../').catch((err) => (listed = err));
      expect(listed).to.be.instanceOf(InvalidStorageKey);
    });
  });
}

describe('storage driver: local disk specifics', () => {
  it('writes under its root only, renames into place (no temp file left), and prunes emptied folders', async () => {
    const store = await localTestStorage();
    try {
      await store.driver.put('show-image/2026/11/x.png', Buffer.from('png'), { contentType: 'image/png' });
      expect(await fs.readFile(path.join(store.root, 'show-image/2026/11/x.png'), 'utf8')).to.equal('png');
      expect(await fs.readdir(path.join(store.root, '.tmp'))).to.deep.equal([]);
      await store.driver.delete('show-image/2026/11/x.png');
      expect((await fs.readdir(store.root)).filter((name) => name !== '.tmp')).to.deep.equal([]);
    } finally {
      await store.close();
    }
  });
});
