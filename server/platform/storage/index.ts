import path from 'node:path';
import type { Config } from '../config.ts';
import { LocalStorage } from './local.ts';
import { S3Storage } from './s3.ts';
import type { StorageDriver } from './driver.ts';

export * from './driver.ts';
export { LocalStorage } from './local.ts';
export { S3Storage } from './s3.ts';

/** The configured object store: `<DATA_DIR>/blobs` on local disk, or an S3-compatible bucket. */
export function createStorage(config: Config): StorageDriver {
  if (config.storageDriver === 's3') {
    return new S3Storage({
      bucket: config.storageS3Bucket!,
      region: config.storageS3Region,
      endpoint: config.storageS3Endpoint,
      accessKeyId: config.storageS3AccessKeyId,
      secretAccessKey: config.storageS3SecretAccessKey,
      forcePathStyle: config.storageS3ForcePathStyle,
      timeoutMs: 30_000,
    });
  }
  return new LocalStorage(path.join(config.dataDir, 'blobs'));
}
