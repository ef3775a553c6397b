import type { Readable } from 'node:stream';
import { etagMatches } from '../../platform/http/handler.ts';
import { NotFound, Problem } from '../../platform/http/problem.ts';
import type { ObjectInfo, StorageDriver } from '../../platform/storage/driver.ts';
import { StorageBlob, type BlobPurpose } from './models.ts';
import { PURPOSES } from './purposes.ts';

export interface BlobFilters {
  purpose?: BlobPurpose;
  contentType?: string;
  /** Rows whose object was deleted are listed too unless false. */
  includeDeleted?: boolean;
  limit: number;
  offset: number;
}

/** Blob rows, newest first, with the total for paging. */
export async function listBlobs(filters: BlobFilters): Promise<{ items: StorageBlob[]; total: number }> {
  const base = StorageBlob.query();
  if (filters.purpose) base.where('purpose', filters.purpose);
  if (filters.contentType) base.where('content_type', filters.contentType.toLowerCase());
  if (filters.includeDeleted === false) base.whereNull('object_deleted_at');
  const [items, counted] = await Promise.all([
    base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize(),
  ]);
  return { items, total: counted };
}

export async function getBlob(id: string): Promise<StorageBlob> {
  const blob = await StorageBlob.query().findById(id);
  if (!blob) throw NotFound('No such blob.');
  return blob;
}

export const ObjectGone = () => new Problem(410, 'object_deleted', 'Gone', { detail: "This blob's object has been deleted; its record remains." });

/** The strong validator of a blob: its SHA-256. */
export const blobETag = (blob: StorageBlob) => `"${blob.sha256}"`;

export type Download =
  | { blob: StorageBlob; etag: string; notModified: true }
  | { blob: StorageBlob; etag: string; notModified: false; stream: Readable; size: number };

/** A blob's bytes for download (or 304 when the caller has them): 404 no row, 410 when its object is gone. */
export async function openDownload(storage: StorageDriver, blob: StorageBlob, ifNoneMatch?: string): Promise<Download> {
  if (blob.objectDeletedAt) throw ObjectGone();
  const etag = blobETag(blob);
  if (etagMatches(ifNoneMatch, etag)) return { blob, etag, notModified: true };
  const object = await storage.get(blob.key);
  if (!object) throw ObjectGone();
  return { blob, etag, notModified: false, stream: object.stream, size: object.size };
}

/** A public asset by key: only purposes marked public, only while the object exists; anything else is 404. */
export async function findPublicBlob(key: string): Promise<StorageBlob> {
  const blob = await StorageBlob.query().findOne({ key });
  if (!blob || !PURPOSES[blob.purpose]?.public || blob.objectDeletedAt) throw NotFound('No such asset.');
  return blob;
}

/** Objects in the store (not rows), a page at a time. */
export function listStoreObjects(storage: StorageDriver, prefix: string, limit: number, startAfter?: string): Promise<{ objects: ObjectInfo[]; nextStartAfter?: string }> {
  return storage.list(prefix, { limit, startAfter });
}
