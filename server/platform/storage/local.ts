import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { assertSafeKey, assertSafePrefix, isSafeKey, toReadable, type ObjectInfo, type StorageDriver } from './driver.ts';

const TMP = '.tmp';

/**
 * Objects as files under `root` (`<DATA_DIR>/blobs` by default), the key as the relative path. A put writes a
 * temp file under `root/.tmp` and renames it into place, so a reader never sees half an object and a failed
 * put leaves nothing. Content types are not kept here (the database row has them).
 */
export class LocalStorage implements StorageDriver {
  readonly kind = 'local' as const;
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The file of a key, refused when it would land outside the root (belt and braces after the key check). */
  private file(key: string): string {
    assertSafeKey(key);
    const file = path.resolve(this.root, ...key.split('/'));
    if (!file.startsWith(this.root + path.sep)) throw new Error(`storage key ${key} escapes the storage root`);
    return file;
  }

  async put(key: string, body: Readable | Buffer | Uint8Array, _options: { contentType: string; size?: number }): Promise<ObjectInfo> {
    const target = this.file(key);
    const tmpDir = path.join(this.root, TMP);
    await fsp.mkdir(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, randomUUID());
    try {
      await pipeline(toReadable(body), fs.createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(tmp, target);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    const stat = await fsp.stat(target);
    return { key, size: stat.size, lastModified: stat.mtime };
  }

  async get(key: string) {
    const file = this.file(key);
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(file, 'r');
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
    const stat = await handle.stat();
    if (!stat.isFile()) {
      await handle.close();
      return undefined;
    }
    // The stream owns the open handle: a delete meanwhile does not cut a download short.
    return { stream: handle.createReadStream() as unknown as Readable, size: stat.size };
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    try {
      const stat = await fsp.stat(this.file(key));
      return stat.isFile() ? { key, size: stat.size, lastModified: stat.mtime } : undefined;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<boolean> {
    const file = this.file(key);
    try {
      await fsp.unlink(file);
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
    // Empty folders left by the delete go too (never the root).
    for (let dir = path.dirname(file); dir !== this.root && dir.startsWith(this.root); dir = path.dirname(dir)) {
      try {
        await fsp.rmdir(dir);
      } catch {
        break;
      }
    }
    return true;
  }

  async list(prefix = '', options: { startAfter?: string; limit?: number } = {}) {
    assertSafePrefix(prefix);
    const limit = options.limit ?? 1000;
    const keys: string[] = [];
    await this.walk('', prefix, keys);
    keys.sort();
    const after = options.startAfter;
    const selected = keys.filter((key) => after === undefined || key > after).slice(0, limit + 1);
    const page = selected.slice(0, limit);
    const objects: ObjectInfo[] = [];
    for (const key of page) {
      const info = await this.head(key);
      if (info) objects.push(info);
    }
    return { objects, nextStartAfter: selected.length > limit ? page[page.length - 1] : undefined };
  }

  /** Files under `relative`, skipping folders that cannot hold a key with the prefix (and `.tmp`). */
  private async walk(relative: string, prefix: string, out: string[]): Promise<void> {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(path.join(this.root, relative), { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    for (const entry of entries) {
      const key = relative ? `${relative}/${entry.name}` : entry.name;
      if (!isSafeKey(key)) continue;
      if (entry.isDirectory()) {
        if (prefix.startsWith(key + '/') || key.startsWith(prefix) || (key + '/').startsWith(prefix)) await this.walk(key, prefix, out);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        out.push(key);
      }
    }
  }
}

const isMissing = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException)?.code ?? '');
