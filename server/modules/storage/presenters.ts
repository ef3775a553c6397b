import type { Schema } from '../../platform/http/handler.ts';
import { iso } from '../presenting.ts';
import type { StorageBlob } from './models.ts';
import type { ObjectInfo } from '../../platform/storage/driver.ts';
import type { CleanupReport } from './commands/cleanupStorage.ts';

/** Blob metadata for staff (allow-list: no storage internals beyond the key). */
export function presentBlob(blob: StorageBlob): Schema<'Blob'> {
  return {
    id: blob.id,
    key: blob.key,
    purpose: blob.purpose,
    contentType: blob.contentType,
    byteSize: blob.byteSize,
    sha256: blob.sha256,
    originalFilename: blob.originalFilename,
    uploadedByAccountId: blob.uploadedByAccountId,
    objectDeletedAt: iso(blob.objectDeletedAt),
    createdAt: iso(blob.createdAt)!,
    updatedAt: iso(blob.updatedAt)!,
  };
}

export function presentStoreObject(object: ObjectInfo): Schema<'StoreObjectPage'>['items'][number] {
  return { key: object.key, byteSize: object.size, lastModified: object.lastModified.toISOString() };
}

export function presentCleanupReport(report: CleanupReport): Schema<'CleanupReport'> {
  return { ...report };
}
