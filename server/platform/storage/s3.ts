import { Readable } from 'node:stream';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { assertSafeKey, assertSafePrefix, type ObjectInfo, type StorageDriver } from './driver.ts';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
  /** Per request, milliseconds. */
  timeoutMs?: number;
}

/**
 * Any S3-compatible store (AWS, MinIO, R2, s3rver …). Checksums are sent and checked only where the API
 * requires them: the SDK's default trailing checksums (aws-chunked uploads) are not understood by many
 * S3-compatible servers. A stream of unknown length is read into memory first (S3's PutObject needs the length;
 * uploads here are bounded by their purpose's limit).
 *
 * The AWS SDK is loaded on the first operation (a third of a second of every start otherwise, for a store most
 * installations never configure).
 */
export class S3Storage implements StorageDriver {
  readonly kind = 's3' as const;
  readonly bucket: string;
  private readonly config: S3ClientConfig;
  private loaded: Promise<{ sdk: typeof import('@aws-sdk/client-s3'); client: S3Client }> | undefined;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    const config: S3ClientConfig = {
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    };
    if (options.accessKeyId && options.secretAccessKey) {
      config.credentials = { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey };
    }
    if (options.timeoutMs) config.requestHandler = { requestTimeout: options.timeoutMs, connectionTimeout: options.timeoutMs } as never;
    this.config = config;
  }

  /** The SDK and the client, made on first use. */
  private sdk(): Promise<{ sdk: typeof import('@aws-sdk/client-s3'); client: S3Client }> {
    this.loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: new sdk.S3Client(this.config) }));
    return this.loaded;
  }

  async put(key: string, body: Readable | Buffer | Uint8Array, options: { contentType: string; size?: number }): Promise<ObjectInfo> {
    assertSafeKey(key);
    const bytes = body instanceof Readable ? await collect(body) : Buffer.from(body);
    const { sdk, client } = await this.sdk();
    await client.send(
      new sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: options.contentType, ContentLength: bytes.length }),
    );
    return { key, size: bytes.length, lastModified: new Date(), contentType: options.contentType };
  }

  async get(key: string) {
    assertSafeKey(key);
    const { sdk, client } = await this.sdk();
    try {
      const out = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return { stream: out.Body as Readable, size: Number(out.ContentLength ?? 0), contentType: out.ContentType };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    assertSafeKey(key);
    const { sdk, client } = await this.sdk();
    try {
      const out = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: Number(out.ContentLength ?? 0), lastModified: out.LastModified ?? new Date(0), contentType: out.ContentType };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<boolean> {
    // S3 answers a delete of a missing key with success too; ask first so the answer means something.
    const existed = (await this.head(key)) !== undefined;
    if (existed) {
      const { sdk, client } = await this.sdk();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    }
    return existed;
  }

  async list(prefix = '', options: { startAfter?: string; limit?: number } = {}) {
    assertSafePrefix(prefix);
    // ListObjects (v1, Marker = the last key seen): every S3-compatible server takes it, and paging needs no
    // server-made continuation token (s3rver's cannot be made on OpenSSL 3, for one).
    const { sdk, client } = await this.sdk();
    const out = await client.send(
      new sdk.ListObjectsCommand({
        Bucket: this.bucket,
        Prefix: prefix || undefined,
        Marker: options.startAfter,
        MaxKeys: Math.min(options.limit ?? 1000, 1000),
      }),
    );
    const objects = (out.Contents ?? []).map((o) => ({ key: o.Key!, size: Number(o.Size ?? 0), lastModified: o.LastModified ?? new Date(0) }));
    return { objects, nextStartAfter: out.IsTruncated && objects.length ? objects[objects.length - 1].key : undefined };
  }

  async close(): Promise<void> {
    // Nothing to release when no operation ever loaded the client.
    if (this.loaded) (await this.loaded).client.destroy();
  }
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
