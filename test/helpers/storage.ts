import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { LocalStorage, S3Storage, type StorageDriver } from '../../server/platform/storage/index.ts';

export interface TestStorage {
  kind: 'local' | 's3';
  driver: StorageDriver;
  /** Empties the store (between tests). */
  clear(): Promise<void>;
  close(): Promise<void>;
}

/** A local-disk store in a fresh temp folder. */
export async function localTestStorage(): Promise<TestStorage & { root: string }> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'venue-storage-'));
  const driver = new LocalStorage(root);
  return {
    kind: 'local',
    root,
    driver,
    clear: async () => {
      for (const entry of await fs.readdir(root)) await fs.rm(path.join(root, entry), { recursive: true, force: true });
    },
    close: () => fs.rm(root, { recursive: true, force: true }),
  };
}

/** An S3-compatible server (s3rver) on a loopback port with one bucket, and the S3 driver pointed at it. */
export async function s3TestStorage(): Promise<TestStorage> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'venue-s3rver-'));
  const bucket = 'venue-test';
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const driver = new S3Storage({
    bucket,
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });
  return {
    kind: 's3',
    driver,
    clear: async () => {
      for (;;) {
        const { objects } = await driver.list('', { limit: 1000 });
        if (!objects.length) return;
        for (const object of objects) await driver.delete(object.key);
      }
    },
    close: async () => {
      await driver.close();
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

/** Both drivers, for suites that run once per driver. */
export const storageKinds = [
  { kind: 'local', start: localTestStorage },
  { kind: 's3', start: s3TestStorage },
] as const;
