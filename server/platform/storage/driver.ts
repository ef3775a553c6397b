import { Readable } from 'node:stream';

/** Where blob bytes live. Keys are opaque to the drivers; `assertSafeKey` says which are allowed. */
export interface StorageDriver {
  readonly kind: 'local' | 's3';
  /**
   * Stores an object (replacing one under the same key). A stream is consumed to its end; when it fails, or
   * its consumer destroys it, nothing is left behind under the key. `size` (optional) is the expected length.
   */
  put(key: string, body: Readable | Buffer | Uint8Array, options: { contentType: string; size?: number }): Promise<ObjectInfo>;
  /** The object's bytes as a stream, with its size; undefined when there is no such object. */
  get(key: string): Promise<{ stream: Readable; size: number; contentType?: string } | undefined>;
  /** The object's size and time, without its bytes; undefined when there is no such object. */
  head(key: string): Promise<ObjectInfo | undefined>;
  /** Deletes the object; true when there was one. */
  delete(key: string): Promise<boolean>;
  /** Objects whose keys start with `prefix`, in key order, a page at a time (`startAfter`: the last key seen). */
  list(prefix?: string, options?: { startAfter?: string; limit?: number }): Promise<{ objects: ObjectInfo[]; nextStartAfter?: string }>;
  /** Releases what the driver holds (clients, sockets). */
  close?(): Promise<void>;
}

export interface ObjectInfo {
  key: string;
  size: number;
  lastModified: Date;
  contentType?: string;
}

/** Every object under `prefix`, page by page. */
export async function* listAll(driver: StorageDriver, prefix = ''): AsyncGenerator<ObjectInfo> {
  let startAfter: string | undefined;
  for (;;) {
    const page = await driver.list(prefix, { startAfter, limit: 1000 });
    yield* page.objects;
    if (!page.nextStartAfter) return;
    startAfter = page.nextStartAfter;
  }
}

export class InvalidStorageKey extends Error {
  constructor(key: string) {
    super(`storage key ${JSON.stringify(key.slice(0, 100))} is not allowed`);
    this.name = 'InvalidStorageKey';
  }
}

/**
 * Keys are `/`-separated segments of letters, digits, `.`, `_` and `-`, each starting with a letter or digit
 * (so no `.`/`..`, no hidden files, no absolute paths, no backslashes), 1024 characters at most.
 */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export function isSafeKey(key: string): boolean {
  return typeof key === 'string' && key.length <= 1024 && SAFE_KEY.test(key);
}

export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new InvalidStorageKey(key);
}

/** A prefix is a key's beginning: empty, or safe characters (it may end in `/`). */
export function assertSafePrefix(prefix: string): void {
  if (prefix !== '' && !isSafeKey(prefix.replace(/\/$/, ''))) throw new InvalidStorageKey(prefix);
}

export const toReadable = (body: Readable | Buffer | Uint8Array): Readable => (body instanceof Readable ? body : Readable.from([Buffer.from(body)]));
