import { createHash } from 'node:crypto';
import type { StorageDriver } from '../../../platform/storage/driver.ts';
import { StorageBlob } from '../models.ts';
import { storeBlob as uploadBlob } from '../storeBlob.ts';

export interface UploadSeedAssetInput {
  contentType: string;
  bytes: Buffer;
  originalFilename?: string | null;
  uploadedByAccountId?: string | null;
}

/**
 * A seed asset (purpose `seed-asset`), idempotent by content: a `seed-asset` record with the same SHA-256 and
 * declared type whose object is still stored is returned as it is (`created: false`); otherwise the bytes go
 * through the one upload command (limits, magic bytes, object then row). A seeder run twice stores nothing the
 * second time. Two runs racing on the same bytes may both store them (no unique constraint): harmless copies.
 */
export async function uploadSeedAsset(storage: StorageDriver, input: UploadSeedAssetInput): Promise<{ blob: StorageBlob; created: boolean }> {
  const contentType = input.contentType.toLowerCase().split(';')[0].trim();
  const sha256 = createHash('sha256').update(input.bytes).digest('hex');
  const existing = await StorageBlob.query()
    .where({ purpose: 'seed-asset', sha256, content_type: contentType })
    .whereNull('object_deleted_at')
    .orderBy('created_at')
    .first();
  if (existing && (await storage.head(existing.key))) return { blob: existing, created: false };
  const blob = await uploadBlob(storage, {
    purpose: 'seed-asset',
    contentType,
    body: input.bytes,
    originalFilename: input.originalFilename,
    uploadedByAccountId: input.uploadedByAccountId,
  });
  return { blob, created: true };
}
